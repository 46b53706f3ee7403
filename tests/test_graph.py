"""Stream capture and graphs (rocmath.graph): capture of every library's work and its replay against
direct execution on fresh inputs, cross-stream fork and join, HIP's statuses for every illegal
operation (and the invalidation it causes), graphs built node by node, executable graph updates, and
the lifetime of the memory a graph's replays need (workspaces, temporaries, stream-ordered frees)."""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import scipy.linalg as sl
import scipy.sparse as sp

import rocmath as rm
import rocmath.fft as rf
import rocmath.solver as solver
import rocmath.sparse as rs
from rocmath import blas, graph
from rocmath.errors import (
    CapturedEventError,
    GraphExecUpdateFailureError,
    HipInvalidValueError,
    IllegalStateError,
    LaunchFailureError,
    StreamCaptureImplicitError,
    StreamCaptureInvalidatedError,
    StreamCaptureIsolationError,
    StreamCaptureMergeError,
    StreamCaptureUnjoinedError,
    StreamCaptureUnmatchedError,
    StreamCaptureUnsupportedError,
    StreamCaptureWrongThreadError,
)
from rocmath.graph import CaptureMode, CaptureStatus, ExecUpdateResult, Graph, GraphExec, NodeType

N = blas.Operation.none


def settled_free() -> int:
    """Free device bytes once earlier tests' dropped memory is given back (the counts below are exact)."""
    gc.collect()
    rm.device_synchronize()
    return int(rm.mem_get_info()[0])


@pytest.fixture
def s() -> Iterator[rm.Stream]:
    stream = rm.Stream()
    yield stream
    with contextlib.suppress(Exception):  # a test that failed mid-capture leaves no capture behind
        stream.end_capture()
    stream.synchronize()
    stream.destroy()


@pytest.fixture
def h(s: rm.Stream) -> Iterator[Any]:
    handle = blas.create_handle()
    blas.set_stream(handle, s)
    yield handle
    with contextlib.suppress(Exception):  # (a test may destroy it itself)
        blas.destroy_handle(handle)


def colmajor(a: np.ndarray, s: rm.Stream) -> rm.DeviceArray:
    return rm.to_device(np.asfortranarray(a).ravel(order="F").copy(), s)


def put(d: rm.DeviceArray, a: np.ndarray) -> None:
    """Overwrite ``d`` with the column-major bytes of ``a`` (synchronously)."""
    rm.memcpy(d.ptr, np.asfortranarray(a).ravel(order="F").copy(), d.nbytes)


def f_get(d: rm.DeviceArray, shape: tuple[int, ...]) -> np.ndarray:
    return d.get().reshape(shape, order="F")


def captured(s: rm.Stream, fn: Any, mode: Any = CaptureMode.global_) -> Graph:
    s.begin_capture(mode)
    try:
        fn()
    except BaseException:
        with contextlib.suppress(Exception):
            s.end_capture()
        raise
    return s.end_capture()


# --- the libraries under capture ------------------------------------------------------------------------


def test_gemm_is_captured_not_run_and_replays_current_inputs(s: rm.Stream, h: Any) -> None:
    rng = np.random.default_rng(0)
    n = 5
    dA, dB, dC = colmajor(rng.standard_normal((n, n)), s), colmajor(rng.standard_normal((n, n)), s), rm.zeros(
        n * n, stream=s)
    s.synchronize()
    s.begin_capture()
    assert s.is_capturing() and s.capture_status() is CaptureStatus.active
    blas.dgemm(h, N, N, n, n, n, 1.0, dA, n, dB, n, 0.0, dC, n)
    g = s.end_capture()
    assert not s.is_capturing()
    assert [node.type for node in g.nodes] == [NodeType.kernel]
    assert np.array_equal(dC.get(), np.zeros(n * n))  # captured, not run
    e = g.instantiate()
    for _ in range(2):  # fresh inputs before each replay: the replay reads them
        A, B = rng.standard_normal((n, n)), rng.standard_normal((n, n))
        put(dA, A)
        put(dB, B)
        e.launch(s)
        s.synchronize()
        assert np.allclose(f_get(dC, (n, n)), A @ B, rtol=1e-12, atol=1e-12)
    g.destroy()
    e.launch(s)  # the executable graph outlives its graph
    s.synchronize()
    assert np.allclose(f_get(dC, (n, n)), A @ B, rtol=1e-12, atol=1e-12)


def test_axpy_launched_twice_runs_twice_with_the_captured_host_alpha(s: rm.Stream, h: Any) -> None:
    x, y = np.arange(1.0, 7.0), np.full(6, 0.5)
    dx, dy = rm.to_device(x, s), rm.to_device(y, s)
    alpha = np.array([2.0])
    g = captured(s, lambda: blas.daxpy(h, 6, alpha, dx, 1, dy, 1))
    alpha[0] = 100.0  # a host scalar is read at capture (host pointer mode), as on ROCm
    e = g.instantiate()
    e.launch(s)
    e.launch(s)
    s.synchronize()
    assert np.array_equal(dy.get(), y + 2 * 2.0 * x)


def test_device_alpha_is_read_when_the_graph_runs(s: rm.Stream, h: Any) -> None:
    x, y = np.arange(1.0, 5.0), np.zeros(4)
    dx, dy, dalpha = rm.to_device(x, s), rm.to_device(y, s), rm.to_device(np.array([3.0]), s)
    blas.set_pointer_mode(h, blas.PointerMode.device)
    g = captured(s, lambda: blas.daxpy(h, 4, dalpha, dx, 1, dy, 1))
    e = g.instantiate()
    rm.memcpy(dalpha.ptr, np.array([-1.0]), 8)
    e.launch(s)
    s.synchronize()
    assert np.array_equal(dy.get(), -x)


def test_getrf_with_device_info_replays_on_new_matrices(s: rm.Stream, h: Any) -> None:
    rng = np.random.default_rng(1)
    n = 6
    dA = colmajor(np.eye(n), s)
    ipiv, info = rm.zeros(n, np.int32, stream=s), rm.full(1, -7, np.int32)
    g = captured(s, lambda: solver.dgetrf(h, n, n, dA, n, ipiv, info))
    e = g.instantiate()
    singular = rng.standard_normal((n, n))
    singular[:, 3] = 0.0
    for A, want_info in ((rng.standard_normal((n, n)), 0), (singular, 4), (rng.standard_normal((n, n)), 0)):
        put(dA, A)
        e.launch(s)
        s.synchronize()
        assert info.get()[0] == want_info
        if want_info == 0:
            lu, piv = sl.lu_factor(A)
            assert np.allclose(f_get(dA, (n, n)), lu, rtol=1e-10, atol=1e-12)
            assert np.array_equal(ipiv.get(), piv + 1)


def test_potrf_batched_replays_each_entry(s: rm.Stream, h: Any) -> None:
    rng = np.random.default_rng(2)
    n, batch = 4, 3
    mats = [colmajor(np.eye(n), s) for _ in range(batch)]
    ptrs = rm.to_device(np.array([m.ptr for m in mats], dtype=np.uint64), s)
    info = rm.zeros(batch, np.int32, stream=s)
    g = captured(s, lambda: solver.dpotrf_batched(h, "L", n, ptrs, n, info, batch))
    e = g.instantiate()
    for bad in (1, 2):
        spd = []
        for i, m in enumerate(mats):
            r = rng.standard_normal((n, n))
            a = r @ r.T + n * np.eye(n)
            if i == bad:
                a[2, 2] = -50.0  # not positive definite: info = 3 for this entry
            spd.append(a)
            put(m, a)
        e.launch(s)
        s.synchronize()
        assert list(info.get()) == [3 if i == bad else 0 for i in range(batch)]
        for i, m in enumerate(mats):
            if i != bad:
                assert np.allclose(np.tril(f_get(m, (n, n))), np.linalg.cholesky(spd[i]), rtol=1e-12, atol=1e-12)


def test_fft_execute_with_its_work_buffer(s: rm.Stream) -> None:
    rng = np.random.default_rng(3)
    n = 97  # a prime length: the plan needs a work buffer, allocated and freed per execution
    plan = rf.plan_create(rf.ResultPlacement.notinplace, rf.TransformType.complex_forward, rf.Precision.double, 1,
                          [n], 1)
    assert rf.plan_get_work_buffer_size(plan) > 0
    info = rf.execution_info_create()
    rf.execution_info_set_stream(info, s)
    dx, dy = rm.zeros(n, np.complex128, stream=s), rm.zeros(n, np.complex128, stream=s)
    s.synchronize()
    free0 = settled_free()
    g = captured(s, lambda: rf.execute(plan, [dx], [dy], info))
    e = g.instantiate()
    for _ in range(2):
        x = rng.standard_normal(n) + 1j * rng.standard_normal(n)
        rm.memcpy(dx.ptr, x, x.nbytes)
        e.launch(s)
        s.synchronize()
        assert np.allclose(dy.get(), np.fft.fft(x), rtol=1e-10, atol=1e-10)
    assert rm.mem_get_info()[0] < free0  # the execution's work buffer is the graph's now
    del g, e
    s.synchronize()
    assert rm.mem_get_info()[0] == free0  # ... and given back once the graph is gone
    rf.execution_info_destroy(info)
    rf.plan_destroy(plan)


def test_spmv_replays_on_new_x(s: rm.Stream) -> None:
    rng = np.random.default_rng(4)
    A = (sp.random(7, 7, density=0.4, random_state=5, format="csr") + sp.eye(7, format="csr")).tocsr()
    arrays = [rm.to_device(a, s) for a in (A.indptr.astype(np.int32), A.indices.astype(np.int32), A.data)]
    mat = rs.create_csr_descr(7, 7, A.nnz, *arrays, rs.IndexType.i32, rs.IndexType.i32, 0, rs.Datatype.f64_r)
    dx, dy = rm.zeros(7, stream=s), rm.zeros(7, stream=s)
    X, Y = rs.create_dnvec_descr(7, dx, rs.Datatype.f64_r), rs.create_dnvec_descr(7, dy, rs.Datatype.f64_r)
    handle = rs.create_handle()
    rs.set_stream(handle, s)
    s.synchronize()
    g = captured(s, lambda: rs.spmv(handle, "N", 2.0, mat, X, 0.0, Y, rs.Datatype.f64_r, 0, rs.SpMVStage.compute))
    e = g.instantiate()
    for _ in range(2):
        x = rng.standard_normal(7)
        rm.memcpy(dx.ptr, x, x.nbytes)
        e.launch(s)
        s.synchronize()
        assert np.allclose(dy.get(), 2.0 * (A @ x), rtol=1e-13, atol=1e-13)
    rs.destroy_handle(handle)


def test_a_host_mode_reduction_fails_under_capture_and_invalidates_it(s: rm.Stream, h: Any) -> None:
    # rocBLAS's dot in host pointer mode synchronizes to read its result: on ROCm the synchronize of
    # the capturing stream fails (hipErrorStreamCaptureUnsupported) and invalidates the capture.
    dx = rm.to_device(np.ones(4), s)
    s.begin_capture()
    with pytest.raises(StreamCaptureUnsupportedError):
        blas.ddot(h, 4, dx, 1, dx, 1)
    assert s.capture_status() is CaptureStatus.invalidated
    with pytest.raises(StreamCaptureInvalidatedError):
        s.is_capturing()
    with pytest.raises(StreamCaptureInvalidatedError):
        blas.dscal(h, 4, 2.0, dx, 1)  # work on an invalidated capture
    with pytest.raises(StreamCaptureInvalidatedError):
        s.end_capture()
    assert s.capture_status() is CaptureStatus.none
    assert np.array_equal(dx.get(), np.ones(4))


# --- memory the replays need ---------------------------------------------------------------------------


def test_workspace_is_the_graphs_until_it_is_gone(s: rm.Stream, h: Any) -> None:
    rng = np.random.default_rng(6)
    n = 6
    dA, ipiv, info = colmajor(np.eye(n), s), rm.zeros(n, np.int32, stream=s), rm.zeros(1, np.int32, stream=s)
    solver.dgetrf(h, n, n, dA, n, ipiv, info)  # the handle's workspace exists before the capture
    s.synchronize()
    workspace = blas.get_device_memory_size(h)
    assert workspace > 0
    free0 = settled_free()
    g = captured(s, lambda: solver.dgetrf(h, n, n, dA, n, ipiv, info))
    assert blas.get_device_memory_size(h) == 0  # the graph took it over
    e = g.instantiate()
    big, piv = rm.zeros((40, 40), order="F", stream=s), rm.zeros(40, np.int32, stream=s)
    solver.dgetrf(h, 40, 40, big, 40, piv, info)  # the handle makes a new workspace ...
    blas.destroy_handle(h)  # ... and frees it: the graph's is another
    s.synchronize()
    assert rm.mem_get_info()[0] == free0 - big.nbytes - piv.nbytes
    A = rng.standard_normal((n, n))
    put(dA, A)
    e.launch(s)
    s.synchronize()
    assert np.allclose(f_get(dA, (n, n)), sl.lu_factor(A)[0], rtol=1e-10, atol=1e-12)
    g.destroy()
    s.synchronize()
    assert rm.mem_get_info()[0] == free0 - big.nbytes - piv.nbytes  # the executable graph still needs it
    del e, g
    rm.device_synchronize()  # (the workspace is freed after the device's queued work, on the null stream)
    assert rm.mem_get_info()[0] == free0 + workspace - big.nbytes - piv.nbytes


def test_stream_ordered_frees_during_capture_wait_for_the_graph(s: rm.Stream) -> None:
    free0 = settled_free()
    g = Graph()
    tmp = 0

    def body() -> None:
        nonlocal tmp
        tmp = rm.malloc_async(4096, s)
        rm.memset_async(tmp, 7, 4096, s)
        rm.free_async(tmp, s)  # deferred: the replays still write the block

    g = captured(s, body)
    assert [n.type for n in g.nodes] == [NodeType.memset]
    e = g.instantiate()
    e.launch(s)
    s.synchronize()
    assert rm.mem_get_info()[0] == free0 - 4096
    clone = g.clone()
    del g, e
    s.synchronize()
    assert rm.mem_get_info()[0] == free0 - 4096  # the clone still replays on it
    clone.instantiate().launch(s)
    del clone
    s.synchronize()
    assert rm.mem_get_info()[0] == free0


def test_temporaries_live_as_long_as_the_nodes(s: rm.Stream) -> None:
    free0 = settled_free()
    out = rm.zeros(8, stream=s)

    def body() -> None:
        tmp = rm.to_device(np.arange(8.0), s)  # dropped by the caller at once: the node keeps it
        rm.memcpy_async(out.ptr, tmp, 64, stream=s)

    g = captured(s, body)
    gc.collect()
    e = g.instantiate()
    e.launch(s)
    s.synchronize()
    assert np.array_equal(out.get(), np.arange(8.0))
    del g, e
    s.synchronize()
    assert rm.mem_get_info()[0] == free0 - 64


# --- several streams -----------------------------------------------------------------------------------------


def test_fork_and_join_across_streams(s: rm.Stream, h: Any) -> None:
    s2 = rm.Stream(non_blocking=True)
    h2 = blas.create_handle()
    blas.set_stream(h2, s2)
    x, y = rm.to_device(np.ones(4), s), rm.zeros(4, stream=s)
    z = rm.zeros(4, stream=s)
    s.synchronize()
    fork, join = rm.Event(), rm.Event()

    def body() -> None:
        blas.dscal(h, 4, 3.0, x, 1)  # A (s)
        fork.record(s)
        s2.wait_event(fork)  # s2 joins the capture after A
        assert s2.capture_status() is CaptureStatus.active
        blas.daxpy(h2, 4, 1.0, x, 1, y, 1)  # B (s2): y += x
        join.record(s2)
        blas.daxpy(h, 4, 2.0, x, 1, z, 1)  # C (s): z += 2x, independent of B
        s.wait_event(join)
        blas.daxpy(h, 4, 1.0, y, 1, z, 1)  # D: after C and B

    g = captured(s, body)
    assert s2.capture_status() is CaptureStatus.none  # the joined stream left with the end
    a, b, c, d = g.nodes
    assert [n.name for n in (a, b, c, d)] == ["rocblas_dscal", "rocblas_daxpy", "rocblas_daxpy", "rocblas_daxpy"]
    assert g.root_nodes == [a]
    assert a.dependents == [b, c] and d.dependencies == [c, b]
    assert len(g.edges) == 4
    g.instantiate().launch(s)
    s.synchronize()
    assert np.array_equal(x.get(), np.full(4, 3.0)) and np.array_equal(y.get(), np.full(4, 3.0))
    assert np.array_equal(z.get(), np.full(4, 9.0))
    blas.destroy_handle(h2)
    s2.destroy()


def test_a_fork_not_joined_is_unjoined(s: rm.Stream) -> None:
    s2 = rm.Stream()
    ev = rm.Event()
    buf = rm.zeros(16, stream=s)
    s.synchronize()
    s.begin_capture()
    ev.record(s)
    s2.wait_event(ev)
    rm.memset_async(buf.ptr, 1, 8, s2)
    with pytest.raises(StreamCaptureUnjoinedError):
        s.end_capture()
    assert s.capture_status() is CaptureStatus.none and s2.capture_status() is CaptureStatus.none
    # a joined stream cannot end the capture: hipErrorStreamCaptureUnmatched
    s.begin_capture()
    ev.record(s)
    s2.wait_event(ev)
    with pytest.raises(StreamCaptureUnmatchedError):
        s2.end_capture()
    g = s.end_capture()  # s2 did nothing: nothing unjoined
    assert g.nodes == []
    s2.destroy()


def test_dependencies_removed_from_a_stream_are_not_unjoined(s: rm.Stream) -> None:
    s2 = rm.Stream(non_blocking=True)
    ev = rm.Event()
    buf = rm.zeros(16, stream=s)
    s.synchronize()
    s.begin_capture()
    ev.record(s)
    s2.wait_event(ev)
    rm.memset_async(buf.ptr, 1, 8, s2)
    status, ident, _, deps = graph.capture_info(s2)
    assert status is CaptureStatus.active and ident > 0 and len(deps) == 1
    graph.update_capture_dependencies(s2, [], 1)  # replace s2's set: its memset leaves the capture
    g = s.end_capture()
    assert [n.type for n in g.nodes] == [NodeType.memset]
    s2.destroy()


def test_merging_two_captures_and_an_isolated_event(s: rm.Stream) -> None:
    s2 = rm.Stream()
    early, ev2 = rm.Event(), rm.Event()
    early.record(s)
    s.synchronize()
    s.begin_capture(CaptureMode.relaxed)
    s2.begin_capture(CaptureMode.relaxed)
    ev2.record(s2)
    with pytest.raises(StreamCaptureMergeError):
        s.wait_event(ev2)
    s2.end_capture()
    s3 = rm.Stream()
    with pytest.raises(StreamCaptureIsolationError):  # recorded on s before its capture began
        s3.wait_event(early)
    s.end_capture()
    s2.destroy()
    s3.destroy()


# --- illegal operations: HIP's statuses and the invalidation ------------------------------------------------


def test_begin_and_end_statuses(s: rm.Stream) -> None:
    with pytest.raises(StreamCaptureUnsupportedError):
        rm.null_stream().begin_capture()
    with pytest.raises(HipInvalidValueError):
        s.begin_capture(3)
    with pytest.raises(IllegalStateError):
        s.end_capture()  # not capturing
    with pytest.raises(IllegalStateError):
        rm.null_stream().end_capture()
    s.begin_capture("thread_local")
    with pytest.raises(IllegalStateError):
        s.begin_capture()  # captures already
    errors: list[BaseException] = []
    worker = threading.Thread(target=lambda: errors.append(_raises(s.end_capture)))
    worker.start()
    worker.join()
    assert isinstance(errors[0], StreamCaptureWrongThreadError)
    assert isinstance(s.end_capture(), Graph)
    s.begin_capture(CaptureMode.relaxed)  # relaxed captures end from any thread
    got: list[Any] = []
    worker = threading.Thread(target=lambda: got.append(s.end_capture()))
    worker.start()
    worker.join()
    assert isinstance(got[0], Graph)


def _raises(fn: Any) -> BaseException | None:
    try:
        fn()
    except BaseException as exc:
        return exc
    return None


@pytest.mark.parametrize("operation, error", [
    (lambda s, ev, spare: s.synchronize(), StreamCaptureUnsupportedError),
    (lambda s, ev, spare: s.query(), StreamCaptureUnsupportedError),
    (lambda s, ev, spare: ev.synchronize(), CapturedEventError),
    (lambda s, ev, spare: ev.query(), CapturedEventError),
    (lambda s, ev, spare: rm.device_synchronize(), StreamCaptureUnsupportedError),
    (lambda s, ev, spare: rm.zeros(4).get(), StreamCaptureImplicitError),  # a synchronous copy: null stream
    (lambda s, ev, spare: rm.null_stream().launch_host_func(print), StreamCaptureImplicitError),
    (lambda s, ev, spare: rm.free(spare), StreamCaptureUnsupportedError),  # unsafe in global mode
], ids=["stream synchronize", "stream query", "event synchronize", "event query", "device synchronize",
        "synchronous copy", "null-stream work", "free"])
def test_illegal_operations_fail_and_invalidate(s: rm.Stream, operation: Any, error: type) -> None:
    ev = rm.Event()
    spare = rm.malloc(8)
    s.begin_capture()
    ev.record(s)
    rm.memset_async(rm.zeros(4, stream=s).ptr, 0, 8, s)
    with pytest.raises(error):
        operation(s, ev, spare)
    assert s.capture_status() is CaptureStatus.invalidated
    with pytest.raises(StreamCaptureInvalidatedError):
        s.end_capture()
    rm.free(spare)  # the refused free left it allocated


def test_other_streams_and_modes(s: rm.Stream) -> None:
    other = rm.Stream()
    other.synchronize()
    s.begin_capture(CaptureMode.relaxed)
    other.synchronize()  # a relaxed capture forbids nothing elsewhere
    rm.free(rm.malloc(8))
    s.end_capture()
    s.begin_capture()  # global: synchronizing another stream is unsafe (HIP's StreamCaptureOngoing)
    old = graph.exchange_capture_mode(CaptureMode.relaxed)
    assert old is CaptureMode.global_
    other.synchronize()  # ... except in a thread whose own mode is relaxed
    graph.exchange_capture_mode(old)
    with pytest.raises(StreamCaptureUnsupportedError):
        other.synchronize()
    with pytest.raises(StreamCaptureInvalidatedError):
        s.end_capture()
    nb = rm.Stream(non_blocking=True)  # a non-blocking capture: the null stream may work meanwhile
    nb.begin_capture(CaptureMode.thread_local)
    assert rm.null_stream().capture_status() is CaptureStatus.none
    assert np.array_equal(rm.zeros(2).get(), np.zeros(2))
    assert nb.end_capture().nodes == []
    s.begin_capture()  # a blocking one: the null stream's status is hipErrorStreamCaptureImplicit
    with pytest.raises(StreamCaptureImplicitError):
        rm.null_stream().capture_status()
    s.end_capture()
    other.destroy()
    nb.destroy()


# --- graphs built node by node ---------------------------------------------------------------------------------


def test_explicit_nodes_of_every_kind(s: rm.Stream, tmp_path: Any) -> None:
    src = rm.to_device(np.arange(16, dtype=np.uint8), s)
    dst = rm.zeros(16, np.uint8, stream=s)
    host_out = np.zeros(16, np.uint8)
    s.synchronize()
    calls: list[int] = []
    ev_in, ev_out = rm.Event(), rm.Event()
    g = Graph()
    fill = g.add_memset_node(dst.ptr, 0xAB, 8)
    copy = g.add_memcpy_node(dst.ptr + 8, src.ptr, 8, dependencies=[fill])
    back = g.add_memcpy_node(host_out, dst, 16, rm.MemcpyKind.DeviceToHost, dependencies=[copy])
    host = g.add_host_node(calls.append, 1, dependencies=[back])
    empty = g.add_empty_node([host])
    wait = g.add_event_wait_node(ev_in)
    rec = g.add_event_record_node(ev_out, [empty, wait])
    child = Graph()
    child.add_host_node(calls.append, 2)
    sub = g.add_child_graph_node(child, [rec])
    child.add_host_node(calls.append, 3)  # the node holds a clone: later changes do not reach it
    assert [n.type for n in g.nodes] == [NodeType.memset, NodeType.wait_event, NodeType.memcpy, NodeType.memcpy,
                                         NodeType.host, NodeType.empty, NodeType.event_record, NodeType.graph]
    assert g.root_nodes == [fill, wait]
    assert rec.dependencies == [empty, wait] and sub.dependencies == [rec]
    path = tmp_path / "g.dot"
    g.debug_dot_print(str(path), 1)
    text = path.read_text()
    assert text.startswith("digraph dot {") and f"subgraph cluster_{g.ident}" in text
    assert f'"graph_{g.ident}_node_{fill.ident}" -> "graph_{g.ident}_node_{copy.ident}"' in text
    ev_in.record(s)
    e = g.instantiate()
    e.launch(s)
    s.synchronize()
    assert calls == [1, 2]
    want = np.concatenate([np.full(8, 0xAB, np.uint8), np.arange(8, dtype=np.uint8)])
    assert np.array_equal(dst.get(), want) and np.array_equal(host_out, want)
    assert ev_out.query()


def test_edges_cycles_clones_and_destroy(s: rm.Stream) -> None:
    g = Graph()
    a, b, c = g.add_empty_node(), g.add_empty_node(), g.add_empty_node()
    g.add_dependencies([a, b], [b, c])
    assert g.edges == [(a, b), (b, c)] and g.nodes == [a, b, c]
    with pytest.raises(HipInvalidValueError):
        g.add_dependencies([a], [b])  # exists already
    with pytest.raises(HipInvalidValueError):
        g.add_dependencies([a], [a])
    with pytest.raises(HipInvalidValueError):
        g.add_empty_node([a, a])  # a dependency given twice
    other = Graph()
    with pytest.raises(HipInvalidValueError):
        other.add_empty_node([a])  # a node of another graph
    g.add_dependencies([c], [a])  # a cycle: accepted, refused where an order is needed
    with pytest.raises(HipInvalidValueError):
        g.instantiate()
    with pytest.raises(HipInvalidValueError):
        _ = g.nodes
    g.remove_dependencies([c], [a])
    with pytest.raises(HipInvalidValueError):
        g.remove_dependencies([c], [a])
    clone = g.clone()
    cb = clone.find_in_clone(b)
    assert cb is not b and cb.ident == b.ident and [n.ident for n in clone.nodes] == [a.ident, b.ident, c.ident]
    with pytest.raises(HipInvalidValueError):
        g.find_in_clone(b)  # not a clone
    b.destroy()
    assert g.edges == [] and a.dependents == [] and len(clone.edges) == 2
    with pytest.raises(HipInvalidValueError):
        _ = b.dependencies
    g.destroy()
    with pytest.raises(IllegalStateError):
        g.destroy()
    with pytest.raises(HipInvalidValueError):
        g.add_empty_node()
    with pytest.raises(HipInvalidValueError):
        _ = a.dependents


def test_exec_update_enable_and_destroy(s: rm.Stream, h: Any) -> None:
    x1, y1 = rm.to_device(np.ones(3), s), rm.zeros(3, stream=s)
    x2, y2 = rm.to_device(np.full(3, 5.0), s), rm.zeros(3, stream=s)
    g1 = captured(s, lambda: blas.daxpy(h, 3, 2.0, x1, 1, y1, 1))
    g2 = captured(s, lambda: blas.daxpy(h, 3, 3.0, x2, 1, y2, 1))
    e = g1.instantiate()
    e.update(g2)
    e.launch(s)
    s.synchronize()
    assert np.array_equal(y1.get(), np.zeros(3)) and np.array_equal(y2.get(), np.full(3, 15.0))
    g3 = captured(s, lambda: (blas.dscal(h, 3, 2.0, x1, 1), blas.dscal(h, 3, 2.0, x1, 1)))
    with pytest.raises(GraphExecUpdateFailureError) as err:
        e.update(g3)
    assert err.value.result is ExecUpdateResult.topology_changed and err.value.node is None
    g4 = Graph()
    g4.add_empty_node()
    with pytest.raises(GraphExecUpdateFailureError) as err:
        e.update(g4)
    assert err.value.result is ExecUpdateResult.node_type_changed and err.value.node is g4.nodes[0]
    # disabling a node skips it
    g5 = Graph()
    fill = g5.add_memset_node(y1.ptr, 0xFF, 24)
    e5 = g5.instantiate()
    e5.set_enabled(fill, False)
    assert not e5.is_enabled(fill)
    e5.launch(s)
    s.synchronize()
    assert np.array_equal(y1.get(), np.zeros(3))
    with pytest.raises(HipInvalidValueError):
        e5.node_of(g4.nodes[0])  # not a node of its graph
    e5.destroy()
    with pytest.raises(HipInvalidValueError):
        e5.launch(s)


def test_capturing_a_graph_launch_copies_its_nodes(s: rm.Stream) -> None:
    buf = rm.zeros(8, np.uint8, stream=s)
    s.synchronize()
    inner = Graph()
    inner.add_memset_node(buf.ptr, 3, 8)
    e = inner.instantiate()
    outer = captured(s, lambda: e.launch(s))
    assert [n.type for n in outer.nodes] == [NodeType.memset]
    assert np.array_equal(buf.get(), np.zeros(8, np.uint8))
    outer.instantiate().launch(s)
    s.synchronize()
    assert np.array_equal(buf.get(), np.full(8, 3, np.uint8))


def test_graph_exec_is_a_snapshot(s: rm.Stream) -> None:
    calls: list[int] = []
    g = Graph()
    g.add_host_node(calls.append, 1)
    e = g.instantiate()
    g.add_host_node(calls.append, 2)
    assert isinstance(e, GraphExec) and len(e.nodes) == 1
    e.launch(s)
    g.instantiate().launch(s)
    s.synchronize()
    assert calls == [1, 1, 2]


def test_thread_local_captures_forbid_only_their_thread(s: rm.Stream) -> None:
    ptr = rm.malloc(8)
    s.begin_capture(CaptureMode.thread_local)
    worker = threading.Thread(target=lambda: rm.free(rm.malloc(8)))  # another thread frees freely
    worker.start()
    worker.join()
    assert s.capture_status() is CaptureStatus.active
    with pytest.raises(StreamCaptureUnsupportedError):
        rm.free(ptr)  # the capturing thread may not
    with pytest.raises(StreamCaptureInvalidatedError):
        s.end_capture()
    rm.free(ptr)


def test_destroying_a_capturing_stream_ends_its_capture() -> None:
    s1, s2 = rm.Stream(), rm.Stream()
    ev = rm.Event()
    s1.begin_capture()
    ev.record(s1)
    s2.wait_event(ev)
    assert s2.capture_status() is CaptureStatus.active
    s1.destroy()
    assert s2.capture_status() is CaptureStatus.none
    assert np.array_equal(rm.zeros(2).get(), np.zeros(2))  # the null stream works again
    s2.destroy()


def test_a_deferred_free_finishes_when_the_graph_goes(s: rm.Stream) -> None:
    ran: list[int] = []
    s.begin_capture()
    task = s.enqueue(lambda: ran.append(1), "a stream-ordered free", always_run=True, info={"cat": "free"})
    g = s.end_capture()
    assert g.nodes == [] and not task.finished
    with pytest.raises(StreamCaptureUnsupportedError):
        task.wait()
    del g
    s.synchronize()
    assert ran == [1] and task.finished and task.wait_finished()


def test_a_capture_ended_from_another_thread_leaves_its_thread_free() -> None:
    s = rm.Stream()
    s.begin_capture()
    worker = threading.Thread(target=s.destroy)  # HIP ends the capture of a destroyed stream
    worker.start()
    worker.join()
    assert graph._all == [] and graph._global == [] and graph._mine() == []
    rm.free(rm.malloc(8))  # nothing left to forbid it


@pytest.mark.parametrize("timeline", [False, True], ids=["one task", "a task per node"])
def test_a_run_of_small_nodes_stops_at_its_failing_node_and_names_it(s: rm.Stream, timeline: bool) -> None:
    # Consecutive small nodes run as one task (unless the timeline records each): in order, a failure
    # is the stream's error naming the failing node, the nodes after it do not run, an event recorded
    # after the run still completes, and the next launch (the error cleared) runs them all again.
    out = rm.zeros(5, stream=s)
    fail = [False]

    def adder(i: int) -> Any:
        def add(a: np.ndarray) -> None:
            if i == 2 and fail[0]:
                raise ValueError("node two fails")
            a[i] += 1 + a[i - 1] if i else 1  # each node reads what the one before wrote
        return add

    after = rm.Event()
    s.begin_capture()
    for i in range(4):
        rm.launch(adder(i), out, name=f"add{i}", stream=s, bytes=40.0)  # (small: runs inline)
    after.record(s)
    rm.launch(adder(4), out, name="add4", stream=s, bytes=40.0)
    g = s.end_capture()
    e = g.instantiate()
    with rm.trace() if timeline else contextlib.nullcontext() as rec:
        e.launch(s)
        s.synchronize()
        np.testing.assert_array_equal(out.get(), [1, 2, 3, 4, 5])
        fail[0] = True
        e.launch(s)
        with pytest.raises(LaunchFailureError, match=r"^add2 on .*ValueError: node two fails"):
            s.synchronize()
        assert after.query()
        np.testing.assert_array_equal(out.get(), [2, 5, 3, 4, 5])
        fail[0] = False
        e.launch(s)
        s.synchronize()
        np.testing.assert_array_equal(out.get(), [3, 9, 13, 18, 24])
    if timeline:
        names = [ev["name"] for ev in rec.events]
        assert names.count("add0") == names.count("add1") == 3 and names.count("add3") == 2
    # A node disabled in the middle of a run, then enabled again.
    add1 = next(n for n in g.nodes if getattr(n, "name", None) == "add1")
    e.set_enabled(add1, False)
    e.launch(s)
    s.synchronize()
    np.testing.assert_array_equal(out.get(), [4, 9, 23, 42, 67])
    e.set_enabled(add1, True)
    e.launch(s)
    s.synchronize()
    np.testing.assert_array_equal(out.get(), [5, 15, 39, 82, 150])
