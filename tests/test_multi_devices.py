"""Several devices in one process: peer access, peer copies, batched calls split over devices."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import rocmath as rm
import rocmath.blas as blas
import rocmath.fft as rfft
import rocmath.solver as solver
from rocmath import multi
from rocmath.errors import (
    HipInvalidValueError,
    HipStatus,
    InvalidDeviceError,
    InvalidDevicePointerError,
    MemoryAccessFault,
    PeerAccessAlreadyEnabledError,
    PeerAccessNotEnabledError,
)

# --- peer access -----------------------------------------------------------------------------------


def test_can_access_peer(configure):
    configure(count=3)
    assert multi.device_can_access_peer(0, 1) and multi.device_can_access_peer(2, 0)
    assert not multi.device_can_access_peer(1, 1)
    with pytest.raises(InvalidDeviceError) as e:
        multi.device_can_access_peer(0, 3)
    assert e.value.arg == "peerDeviceId"
    with pytest.raises(InvalidDeviceError):
        multi.device_can_access_peer(-1, 0)


def test_enable_and_disable_peer_access(configure):
    configure(count=2)
    assert not multi.peer_access_enabled(0, 1)
    multi.enable_peer_access(1)
    assert multi.peer_access_enabled(0, 1) and not multi.peer_access_enabled(1, 0)  # one-way
    with pytest.raises(PeerAccessAlreadyEnabledError) as e:
        multi.enable_peer_access(1)
    assert e.value.status is HipStatus.hipErrorPeerAccessAlreadyEnabled
    with pytest.raises(InvalidDeviceError):
        multi.enable_peer_access(0)  # itself
    with pytest.raises(HipInvalidValueError):
        rm.set_device(1)
        multi.enable_peer_access(0, flags=1)
    rm.set_device(0)
    multi.disable_peer_access(1)
    with pytest.raises(PeerAccessNotEnabledError) as e2:
        multi.disable_peer_access(1)
    assert e2.value.status is HipStatus.hipErrorPeerAccessNotEnabled


def test_configure_forgets_peer_access(configure):
    configure(count=2)
    multi.enable_peer_access(1)
    configure(count=2)
    assert not multi.peer_access_enabled(0, 1)
    multi.enable_peer_access(1)


# --- peer copies -----------------------------------------------------------------------------------


def test_memcpy_peer_copies_and_counts(configure):
    configure(count=2)
    multi.reset_peer_traffic()
    src = rm.to_device(np.arange(100, dtype=np.float64))
    dst = rm.zeros(100, device=1)
    multi.memcpy_peer(dst, 1, src, 0, 800)
    assert dst.device == 1 and np.array_equal(dst.get(), np.arange(100.0))
    multi.memcpy_peer(src.ptr, 0, dst.ptr + 400, 1, 400)  # raw pointers, an offset source
    assert np.array_equal(src.get()[:50], np.arange(50.0, 100.0))
    assert multi.peer_traffic() == {(0, 1): 800, (1, 0): 400}
    multi.memcpy_peer(src, 0, src, 0, 8)  # one device: a copy, not peer traffic
    assert multi.peer_traffic() == {(0, 1): 800, (1, 0): 400}
    multi.reset_peer_traffic()
    assert multi.peer_traffic() == {}


def test_memcpy_peer_waits_for_earlier_work_of_both_devices(configure):
    configure(count=2)
    src = rm.zeros(1 << 18)  # 2 MiB: the fill goes through the stream's worker
    dst = rm.zeros(1 << 18, device=1)
    s = rm.Stream(0)  # a blocking stream: the null stream of device 0 waits for it
    src.fill(7.0, stream=s)
    multi.memcpy_peer(dst, 1, src, 0, src.nbytes)
    assert (dst.get() == 7.0).all()


def test_memcpy_peer_checks_devices_and_bounds(configure):
    configure(count=3)
    a = rm.zeros(10)
    b = rm.zeros(10, device=1)
    with pytest.raises(InvalidDevicePointerError) as e:
        multi.memcpy_peer(b, 2, a, 0, 80)  # b is memory of device 1
    assert e.value.arg == "dst" and "device 1" in e.value.message
    with pytest.raises(InvalidDevicePointerError):
        multi.memcpy_peer(b, 1, a, 1, 80)
    with pytest.raises(MemoryAccessFault):
        multi.memcpy_peer(b, 1, a, 0, 88)
    with pytest.raises(InvalidDeviceError) as e2:
        multi.memcpy_peer(b, 5, a, 0, 8)
    assert e2.value.arg == "dstDevice"
    with pytest.raises(HipInvalidValueError):
        multi.memcpy_peer(b, 1, a, 0, -1)
    with pytest.raises(HipInvalidValueError):
        multi.memcpy_peer(np.zeros(10), 1, a, 0, 8)  # host buffers are not peer memory
    host = rm.malloc_host(80)
    try:
        with pytest.raises(InvalidDevicePointerError):
            multi.memcpy_peer(b, 1, host, 0, 8)
    finally:
        rm.free_host(host)
    multi.memcpy_peer(b, 1, a, 0, 0)  # nothing to do


def test_memcpy_peer_async_is_stream_ordered(configure):
    configure(count=2)
    x = rm.to_device(np.arange(1 << 16, dtype=np.float32))  # on device 0's null stream
    y = rm.empty(1 << 16, np.float32, device=1)
    z = rm.empty(1 << 16, np.float32, device=0)
    s = rm.Stream(1)
    # Only s's order is kept: x's copy is the other device's work, ordered by an event as in HIP
    # (without it the first copy may read x before it is written).
    s.wait_event(rm.Event(0).record())
    multi.memcpy_peer_async(y, 1, x, 0, x.nbytes, s)
    multi.memcpy_peer_async(z, 0, y, 1, y.nbytes, s)  # after the first on the same stream
    s.synchronize()
    assert np.array_equal(z.get(), np.arange(1 << 16, dtype=np.float32))


# --- partition -------------------------------------------------------------------------------------


@pytest.mark.parametrize("batch, parts, expect", [
    (10, 3, [(0, 4), (4, 7), (7, 10)]), (2, 4, [(0, 1), (1, 2)]), (0, 2, []), (8, 2, [(0, 4), (4, 8)]),
])
def test_partition(batch, parts, expect):
    assert multi.partition(batch, parts) == expect


# --- strided batched calls split over devices ----------------------------------------------------


def _gemm_args(h, dA, dB, dC, n, batch, beta=0.0):
    return (h, "N", "T", n, n, n, 1.5, dA, n, n * n, dB, n, n * n, beta, dC, n, n * n, batch)


@pytest.mark.parametrize("count, batch", [(2, 7), (3, 50), (4, 3), (4, 1)])
def test_split_gemm_has_the_bits_of_one_device(configure, count, batch):
    configure(count=count)
    rng = np.random.default_rng(count * 100 + batch)
    n = 12
    A, B, C = (rng.standard_normal((batch, n, n)) for _ in range(3))
    dA, dB = rm.to_device(A), rm.to_device(B)
    one, split = rm.to_device(C), rm.to_device(C)
    h = blas.create_handle()
    blas.dgemm_strided_batched(*_gemm_args(h, dA, dB, one, n, batch, beta=0.5))
    multi.reset_peer_traffic()
    assert multi.split_batched(blas.dgemm_strided_batched, *_gemm_args(h, dA, dB, split, n, batch, beta=0.5),
                               outputs=("C",)) is None
    got = split.get(stream=h.stream)  # ordered after the split call on the handle's stream
    assert np.array_equal(got, one.get())
    # Each other device gets A, B and C of its entries and sends C back.
    entry = n * n * 8
    parts = multi.partition(batch, count)
    expect = {}
    for d, (start, stop) in enumerate(parts):
        if d:
            expect[(0, d)] = 3 * (stop - start) * entry
            expect[(d, 0)] = (stop - start) * entry
    assert multi.peer_traffic() == expect
    h.destroy()


def test_split_complex_gemm_with_default_outputs_and_a_subset_of_devices(configure):
    configure(count=3)
    rng = np.random.default_rng(5)
    batch, n = 9, 8
    A = (rng.standard_normal((batch, n, n)) + 1j * rng.standard_normal((batch, n, n))).astype(np.complex64)
    B = A.conj()
    dA, dB = rm.to_device(A), rm.to_device(B)
    one, split = rm.zeros((batch, n, n), np.complex64), rm.zeros((batch, n, n), np.complex64)
    h = blas.create_handle()
    blas.cgemm_strided_batched(h, "C", "N", n, n, n, 1.0, dA, n, n * n, dB, n, n * n, 0.0, one, n, n * n, batch)
    with multi.DeviceGroup([2, 1]) as g:  # the root (device 0) computes nothing itself
        g.strided_batched(blas.cgemm_strided_batched, h, "C", "N", n, n, n, 1.0, dA, n, n * n, dB, n, n * n, 0.0,
                          split, n, n * n, batch)
    assert np.array_equal(split.get(stream=h.stream), one.get())
    assert np.array_equal(dA.get(), A)  # read-only arrays written back unchanged
    h.destroy()


def test_split_solver_call_with_pivots_and_info(configure):
    configure(count=2)
    rng = np.random.default_rng(7)
    batch, n = 11, 6
    A = rng.standard_normal((batch, n, n))
    A[3] = 0.0  # a singular entry: info > 0 there
    h = blas.create_handle()
    results = []
    for split in (False, True):
        dA = rm.to_device(A)
        ipiv = rm.zeros((batch, n), np.int32)
        info = rm.zeros(batch, np.int32)
        args = (h, n, n, dA, n, n * n, ipiv, n, info, batch)
        if split:
            multi.split_batched(solver.dgetrf_strided_batched, *args)
        else:
            solver.dgetrf_strided_batched(*args)
        results.append((dA.get(stream=h.stream), ipiv.get(stream=h.stream), info.get(stream=h.stream)))
    for one, two in zip(*results, strict=True):
        assert np.array_equal(one, two)
    assert results[1][2][3] > 0 and (np.delete(results[1][2], 3) == 0).all()
    h.destroy()


def test_split_reduction_in_host_mode_returns_every_result(configure):
    configure(count=2)
    x = np.arange(5 * 40, dtype=np.float64).reshape(5, 40) / 7
    dx = rm.to_device(x)
    h = blas.create_handle()
    one = blas.dnrm2_strided_batched(h, 40, dx, 1, 40, 5)
    split = multi.split_batched(blas.dnrm2_strided_batched, h, 40, dx, 1, 40, 5)
    assert split.shape == (5,) and np.array_equal(split, one)
    h.destroy()


def test_split_refuses_what_it_cannot_split(configure):
    configure(count=2)
    h = blas.create_handle()
    a = rm.zeros((4, 2, 2))
    c = rm.zeros((4, 2, 2))
    with pytest.raises(HipInvalidValueError, match="not a strided batched call"):
        multi.split_batched(blas.dgemm, h, "N", "N", 2, 2, 2, 1.0, a, 2, a, 2, 0.0, c, 2)
    with pytest.raises(HipInvalidValueError, match="as a DeviceArray") as e:
        multi.split_batched(blas.dgemm_strided_batched, h, "N", "N", 2, 2, 2, 1.0, a.ptr, 2, 4, a, 2, 4, 0.0, c, 2,
                            4, 4)
    assert e.value.arg == "A"
    with pytest.raises(HipInvalidValueError, match="stride 0") as e:
        multi.split_batched(blas.dgemm_strided_batched, h, "N", "N", 2, 2, 2, 1.0, a, 2, 0, a, 2, 4, 0.0, c, 2, 4,
                            4)
    assert e.value.arg == "A" and "outputs=" in e.value.message
    with pytest.raises(HipInvalidValueError, match="stride 0"):
        multi.split_batched(blas.dgemm_strided_batched, h, "N", "N", 2, 2, 2, 1.0, a, 2, 4, a, 2, 4, 0.0, c, 2, 0,
                            4, outputs=("C",))
    with pytest.raises(HipInvalidValueError, match="outputs"):
        multi.split_batched(blas.dgemm_strided_batched, h, "N", "N", 2, 2, 2, 1.0, a, 2, 4, a, 2, 4, 0.0, c, 2, 4,
                            4, outputs=("D",))
    h.set_pointer_mode(rm.PointerMode.device)
    with pytest.raises(HipInvalidValueError, match="host pointer mode"):
        multi.split_batched(blas.dgemm_strided_batched, h, "N", "N", 2, 2, 2, 1.0, a, 2, 4, a, 2, 4, 0.0, c, 2, 4, 4)
    h.destroy()


def test_split_shares_a_stride_zero_input(configure):
    configure(count=2)
    rng = np.random.default_rng(3)
    batch, n = 6, 5
    A = rng.standard_normal((n, n))
    B = rng.standard_normal((batch, n, n))
    dA, dB = rm.to_device(A), rm.to_device(B)
    one, split = rm.zeros((batch, n, n)), rm.zeros((batch, n, n))
    h = blas.create_handle()
    args = (h, "N", "N", n, n, n, 1.0, dA, n, 0, dB, n, n * n, 0.0)
    blas.dgemm_strided_batched(*args, one, n, n * n, batch)
    multi.split_batched(blas.dgemm_strided_batched, *args, split, n, n * n, batch, outputs=["C"])
    assert np.array_equal(split.get(stream=h.stream), one.get())
    h.destroy()


def test_the_caller_keeps_its_current_device(configure):
    configure(count=2)
    rm.set_device(1)
    h = blas.create_handle()  # the root is device 1
    x = rm.to_device(np.ones((4, 3)))
    split = multi.split_batched(blas.dasum_strided_batched, h, 3, x, 1, 3, 4)
    assert rm.get_device() == 1 and np.array_equal(split, np.full(4, 3.0))
    h.destroy()
    rm.set_device(0)


# --- array functions over a group ----------------------------------------------------------------


@pytest.fixture
def group3(configure):
    configure(count=3)
    g = multi.DeviceGroup()
    yield g
    g.close()


def test_map_matmul_solve_fft_have_the_bits_of_one_device(group3):
    rng = np.random.default_rng(11)
    A = rng.standard_normal((10, 8, 8)) + 8 * np.eye(8)
    B = rng.standard_normal((10, 8, 3))
    dA, dB = rm.to_device(A), rm.to_device(B)
    for fn, args in ((blas.matmul, (dA, dB)), (solver.solve, (dA, dB))):
        one = fn(*args).get()
        got = group3.map(fn, *args)
        assert got.device == 0 and got.shape == one.shape
        assert np.array_equal(got.get(), one)
    X = rm.to_device(rng.standard_normal((7, 64)) + 1j * rng.standard_normal((7, 64)))
    assert np.array_equal(group3.map(rfft.fft, X).get(), rfft.fft(X).get())


def test_map_keeps_column_major_results_and_tuples(group3):
    rng = np.random.default_rng(12)
    A = rng.standard_normal((5, 6, 6)) + 6 * np.eye(6)
    dA = rm.to_device(A)
    lu, piv = group3.map(solver.lu_factor, dA)
    lu1, piv1 = solver.lu_factor(dA)
    assert lu.strides == lu1.strides  # each matrix column-major, batch outermost
    assert np.array_equal(lu.get(), lu1.get()) and np.array_equal(piv.get(), piv1.get())


def test_map_takes_host_arrays_and_views_with_gaps(group3):
    rng = np.random.default_rng(13)
    A = rng.standard_normal((6, 4, 4))
    big = rm.to_device(rng.standard_normal((6, 4, 8)))
    B = big[:, :, :4]  # entries with gaps: packed before they travel
    got = group3.map(blas.matmul, A, B)
    assert np.array_equal(got.get(), blas.matmul(rm.to_device(A), B).get())


def test_map_checks_its_arrays(group3):
    a = rm.zeros((4, 2, 2))
    with pytest.raises(HipInvalidValueError, match="first axes differ"):
        group3.map(blas.matmul, a, rm.zeros((3, 2, 2)))
    with pytest.raises(HipInvalidValueError, match="not the current device"):
        group3.map(blas.matmul, a, rm.zeros((4, 2, 2), device=1))
    with pytest.raises(HipInvalidValueError, match="not a DeviceArray"):
        group3.map(blas.matmul, a, [1, 2])
    with pytest.raises(HipInvalidValueError):
        group3.map(blas.matmul)


def test_group_parts_run_on_their_own_threads_and_streams(group3):
    seen: list[tuple[int, str]] = []
    lock = threading.Lock()

    def probe(x):
        with lock:
            seen.append((rm.get_device(), rm.current_stream().device.index))
        return x

    out = group3.map(probe, rm.to_device(np.arange(9.0).reshape(9, 1)))
    assert sorted(seen) == [(0, 0), (1, 1), (2, 2)]
    assert np.array_equal(out.get().ravel(), np.arange(9.0))


def test_closed_group_refuses_work(configure):
    configure(count=2)
    g = multi.DeviceGroup([0, 1])
    g.close()
    g.close()
    with pytest.raises(HipInvalidValueError, match="closed"):
        g.map(blas.matmul, rm.zeros((2, 2, 2)), rm.zeros((2, 2, 2)))
    with pytest.raises(HipInvalidValueError, match="repeat"):
        multi.DeviceGroup([1, 1])
    with pytest.raises(InvalidDeviceError):
        multi.DeviceGroup([0, 2])
