"""hip.hip's graph and stream-capture API (rocmath.hip._hip_graph): hip-python 6.2's calls and return tuples,
HIP's statuses in its check order, every node type built by hand and run, parameter getters and setters on
graphs and executable graphs, executable graph updates, user objects and graph memory nodes."""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hip_util import check, to_device, to_host

from rocmath.hip import hip, hipblas

E = hip.hipError_t
K = hip.hipMemcpyKind
GLOBAL = hip.hipStreamCaptureMode.hipStreamCaptureModeGlobal
RELAXED = hip.hipStreamCaptureMode.hipStreamCaptureModeRelaxed
NT = hip.hipGraphNodeType


@pytest.fixture
def stream() -> Iterator[Any]:
    s = check(hip.hipStreamCreate())
    yield s
    if hip.hipStreamIsCapturing(s)[1] != hip.hipStreamCaptureStatus.hipStreamCaptureStatusNone:
        hip.hipStreamEndCapture(s)  # a failed test leaves no capture behind
    check(hip.hipStreamSynchronize(s))
    check(hip.hipStreamDestroy(s))


@pytest.fixture
def buf() -> Iterator[Any]:
    d = check(hip.hipMalloc(256))
    check(hip.hipMemset(d, 0, 256))
    yield d
    check(hip.hipFree(d))


def graph() -> Any:
    return check(hip.hipGraphCreate(0))


def run(g: Any, stream: Any, times: int = 1) -> None:
    e = check(hip.hipGraphInstantiate(g, None, 0))[0]
    for _ in range(times):
        check(hip.hipGraphLaunch(e, stream))
    check(hip.hipStreamSynchronize(stream))
    check(hip.hipGraphExecDestroy(e))


# --- capture -------------------------------------------------------------------------------------------------


def test_capture_hipblas_and_copies_then_replay(stream: Any) -> None:
    x, y = np.arange(1.0, 9.0), np.full(8, 0.5)
    dx, dy = to_device(x), to_device(y)
    h = check(hipblas.hipblasCreate())
    check(hipblas.hipblasSetStream(h, stream))
    alpha = ctypes.c_double(2.0)
    host_out = check(hip.hipHostMalloc(64))
    assert hip.hipStreamBeginCapture(stream=stream, mode=GLOBAL) == (E.hipSuccess,)
    assert hip.hipStreamIsCapturing(stream) == (E.hipSuccess, hip.hipStreamCaptureStatus.hipStreamCaptureStatusActive)
    err, status, ident = hip.hipStreamGetCaptureInfo(stream)
    assert err == E.hipSuccess and status == hip.hipStreamCaptureStatus.hipStreamCaptureStatusActive and ident > 0
    check(hipblas.hipblasDaxpy(h, 8, ctypes.addressof(alpha), dx, 1, dy, 1))
    check(hip.hipMemcpyAsync(host_out, dy, 64, K.hipMemcpyDeviceToHost, stream))
    err, g = hip.hipStreamEndCapture(stream)
    assert err == E.hipSuccess and isinstance(g, hip.ihipGraph)
    err, nodes, count = hip.hipGraphGetNodes(g)
    assert count == 2 and [check(hip.hipGraphNodeGetType(n)) for n in nodes] == [NT.hipGraphNodeTypeKernel,
                                                                                  NT.hipGraphNodeTypeMemcpy]
    assert np.array_equal(to_host(dy, y), y)  # nothing ran
    alpha.value = 99.0  # host pointer mode: the captured alpha stays 2
    err, e, errnode = hip.hipGraphInstantiate(graph=g, pLogBuffer=None, bufferSize=0)
    assert err == E.hipSuccess and errnode is None
    check(hip.hipGraphLaunch(graphExec=e, stream=stream))
    check(hip.hipGraphLaunch(e, stream))
    check(hip.hipStreamSynchronize(stream))
    out = np.ctypeslib.as_array((ctypes.c_double * 8).from_address(int(host_out)))
    assert np.array_equal(out, y + 4.0 * x) and np.array_equal(to_host(dy, y), y + 4.0 * x)
    check(hip.hipGraphExecDestroy(e))
    check(hip.hipGraphDestroy(g))
    check(hipblas.hipblasDestroy(h))
    check(hip.hipHostFree(host_out))
    for d in (dx, dy):
        check(hip.hipFree(d))


def test_capture_info_v2_dependencies_and_mode_exchange(stream: Any, buf: Any) -> None:
    check(hip.hipStreamBeginCapture(stream, RELAXED))
    check(hip.hipMemsetAsync(buf, 1, 16, stream))
    deps: list[Any] = []
    err, status, ident, g, n = hip.hipStreamGetCaptureInfo_v2(stream, deps)
    assert (err, status, n) == (E.hipSuccess, hip.hipStreamCaptureStatus.hipStreamCaptureStatusActive, 1)
    assert ident == hip.hipStreamGetCaptureInfo(stream)[2] and isinstance(g, hip.ihipGraph)
    assert check(hip.hipGraphNodeGetType(deps[0])) == NT.hipGraphNodeTypeMemset
    raw = ctypes.c_void_p()
    hip.hipStreamGetCaptureInfo_v2(stream, raw)
    assert ctypes.c_uint64.from_address(raw.value).value == int(deps[0])  # an array of node addresses
    # replace the stream's dependency set by nothing: the next node is a root
    flags = hip.hipStreamUpdateCaptureDependenciesFlags.hipStreamSetCaptureDependencies
    assert hip.hipStreamUpdateCaptureDependencies(stream, 0, flags)[0] == E.hipSuccess
    assert hip.hipStreamUpdateCaptureDependencies(stream, 1, 0)[0] == E.hipErrorInvalidValue  # hip-python's NULL
    assert hip.hipStreamUpdateCaptureDependencies(stream, 1, 7, dependencies=deps)[0] == E.hipErrorInvalidValue
    check(hip.hipMemsetAsync(buf, 2, 16, stream))
    g = check(hip.hipStreamEndCapture(stream))
    assert check(hip.hipGraphGetRootNodes(g))[1] == 2 and check(hip.hipGraphGetEdges(g))[2] == 0
    check(hip.hipGraphDestroy(g))
    mode = ctypes.c_int(int(RELAXED))
    assert hip.hipThreadExchangeStreamCaptureMode(mode) == (E.hipSuccess,) and mode.value == int(GLOBAL)
    check(hip.hipThreadExchangeStreamCaptureMode(mode))
    assert mode.value == int(RELAXED)
    assert hip.hipThreadExchangeStreamCaptureMode(ctypes.c_int(5)) == (E.hipErrorInvalidValue,)
    assert hip.hipThreadExchangeStreamCaptureMode(None) == (E.hipErrorInvalidValue,)


def test_capture_statuses(stream: Any, buf: Any) -> None:
    assert hip.hipStreamBeginCapture(None, GLOBAL) == (E.hipErrorStreamCaptureUnsupported,)
    with pytest.raises(TypeError):
        hip.hipStreamBeginCapture(stream, 0)  # hip-python's enum check
    assert hip.hipStreamBeginCapture(0x12345, GLOBAL) == (E.hipErrorContextIsDestroyed,)
    assert hip.hipStreamEndCapture(stream) == (E.hipErrorIllegalState, None)
    assert hip.hipStreamEndCapture(None) == (E.hipErrorIllegalState, None)
    assert hip.hipStreamIsCapturing(None) == (E.hipSuccess, hip.hipStreamCaptureStatus.hipStreamCaptureStatusNone)
    check(hip.hipStreamBeginCapture(stream, GLOBAL))
    assert hip.hipStreamBeginCapture(stream, GLOBAL) == (E.hipErrorIllegalState,)
    assert hip.hipStreamIsCapturing(None)[0] == E.hipErrorStreamCaptureImplicit  # a blocking stream captures
    got: list[Any] = []
    worker = threading.Thread(target=lambda: got.append(hip.hipStreamEndCapture(stream)))
    worker.start()
    worker.join()
    assert got[0] == (E.hipErrorStreamCaptureWrongThread, None)
    check(hip.hipMemsetAsync(buf, 3, 8, stream))
    event = check(hip.hipEventCreate())
    check(hip.hipEventRecord(event, stream))
    assert hip.hipEventQuery(event) == (E.hipErrorCapturedEvent,)
    assert hip.hipStreamIsCapturing(stream)[1] == hip.hipStreamCaptureStatus.hipStreamCaptureStatusInvalidated
    assert hip.hipMemsetAsync(buf, 3, 8, stream) == (E.hipErrorStreamCaptureInvalidated,)
    assert hip.hipStreamEndCapture(stream) == (E.hipErrorStreamCaptureInvalidated, None)
    for illegal, status in ((lambda: hip.hipStreamSynchronize(stream), E.hipErrorStreamCaptureUnsupported),
                            (lambda: hip.hipStreamQuery(stream), E.hipErrorStreamCaptureUnsupported),
                            (lambda: hip.hipEventSynchronize(event), E.hipErrorCapturedEvent),
                            (hip.hipDeviceSynchronize, E.hipErrorStreamCaptureUnsupported),
                            (lambda: hip.hipMemset(buf, 0, 8), E.hipErrorStreamCaptureImplicit)):
        check(hip.hipStreamBeginCapture(stream, GLOBAL))
        check(hip.hipEventRecord(event, stream))
        assert illegal() == (status,)
        assert hip.hipStreamEndCapture(stream) == (E.hipErrorStreamCaptureInvalidated, None)
    assert np.array_equal(to_host(buf, np.zeros(256, np.uint8)), np.zeros(256, np.uint8))
    check(hip.hipEventDestroy(event))


def test_fork_join_through_events(stream: Any, buf: Any) -> None:
    side = check(hip.hipStreamCreateWithFlags(hip.hipStreamNonBlocking))
    fork, join = check(hip.hipEventCreate()), check(hip.hipEventCreate())
    check(hip.hipStreamBeginCapture(stream, GLOBAL))
    check(hip.hipMemsetAsync(buf, 1, 64, stream))
    check(hip.hipEventRecord(fork, stream))
    check(hip.hipStreamWaitEvent(side, fork, 0))
    check(hip.hipMemsetAsync(int(buf) + 64, 2, 64, side))
    assert hip.hipStreamEndCapture(side) == (E.hipErrorStreamCaptureUnmatched, None)
    check(hip.hipEventRecord(join, side))
    check(hip.hipStreamWaitEvent(stream, join, 0))
    check(hip.hipMemsetAsync(int(buf) + 128, 3, 64, stream))
    g = check(hip.hipStreamEndCapture(stream))
    nodes, n = check(hip.hipGraphGetNodes(g))
    assert n == 3 and check(hip.hipGraphNodeGetDependencies(nodes[2]))[1] == 2
    run(g, stream)
    want = np.repeat(np.array([1, 2, 3, 0], np.uint8), 64)
    assert np.array_equal(to_host(buf, want), want)
    check(hip.hipGraphDestroy(g))
    # not joined: hipErrorStreamCaptureUnjoined
    check(hip.hipStreamBeginCapture(stream, GLOBAL))
    check(hip.hipEventRecord(fork, stream))
    check(hip.hipStreamWaitEvent(side, fork, 0))
    check(hip.hipMemsetAsync(buf, 9, 8, side))
    assert hip.hipStreamEndCapture(stream) == (E.hipErrorStreamCaptureUnjoined, None)
    for ev in (fork, join):
        check(hip.hipEventDestroy(ev))
    check(hip.hipStreamDestroy(side))


def test_spt_variants_capture_the_per_thread_stream(buf: Any) -> None:
    if not hasattr(hip, "hipMemsetAsync_spt"):
        pytest.skip("the per-thread default stream is not in this build")
    check(hip.hipStreamBeginCapture_spt(None, GLOBAL))
    assert hip.hipStreamIsCapturing_spt(None)[1] == hip.hipStreamCaptureStatus.hipStreamCaptureStatusActive
    assert hip.hipStreamGetCaptureInfo_spt(None)[1] == hip.hipStreamCaptureStatus.hipStreamCaptureStatusActive
    check(hip.hipMemsetAsync_spt(buf, 4, 16, None))
    g = check(hip.hipStreamEndCapture_spt(None))
    e = check(hip.hipGraphInstantiateWithFlags(g, 0))
    check(hip.hipGraphLaunch_spt(e, None))
    check(hip.hipStreamSynchronize_spt(None))
    assert np.array_equal(to_host(buf, np.zeros(16, np.uint8))[:16], np.full(16, 4, np.uint8))
    check(hip.hipGraphExecDestroy(e))
    check(hip.hipGraphDestroy(g))


# --- graphs built by hand --------------------------------------------------------------------------------------


def test_every_node_kind_runs_in_order(stream: Any, buf: Any) -> None:
    g = graph()
    calls: list[Any] = []
    fill = hip.hipMemsetParams(dst=buf, elementSize=4, height=3, pitch=32, value=0x11223344, width=2)
    n_fill = check(hip.hipGraphAddMemsetNode(g, 0, fill))[0]
    host_in = np.arange(16, dtype=np.uint8)
    n_copy = check(hip.hipGraphAddMemcpyNode1D(g, 1, int(buf) + 128, host_in, 16, K.hipMemcpyHostToDevice,
                                               pDependencies=[n_fill]))[0]
    host_out = np.zeros(256, np.uint8)
    n_back = check(hip.hipGraphAddMemcpyNode1D(g, 1, host_out, buf, 256, K.hipMemcpyDefault,
                                               pDependencies=[n_copy]))[0]
    cfn = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(lambda data: calls.append(("c", data)))
    n_host = check(hip.hipGraphAddHostNode(g, 1, hip.hipHostNodeParams(fn=calls.append, userData="py"),
                                           pDependencies=[n_back]))[0]
    n_chost = check(hip.hipGraphAddHostNode(g, 1, hip.hipHostNodeParams(fn=cfn, userData=0x40),
                                            pDependencies=[n_host]))[0]
    n_empty = check(hip.hipGraphAddEmptyNode(g, 1, pDependencies=[n_chost]))[0]
    ev = check(hip.hipEventCreate())
    n_rec = check(hip.hipGraphAddEventRecordNode(g, 1, ev, pDependencies=[n_empty]))[0]
    n_wait = check(hip.hipGraphAddEventWaitNode(g, 1, ev, pDependencies=[n_rec]))[0]
    child = graph()
    check(hip.hipGraphAddHostNode(child, 0, hip.hipHostNodeParams(fn=calls.append, userData="child")))
    n_child = check(hip.hipGraphAddChildGraphNode(g, 1, child, pDependencies=[n_wait]))[0]
    check(hip.hipGraphAddHostNode(child, 0, hip.hipHostNodeParams(fn=calls.append, userData="later")))
    assert check(hip.hipGraphEventRecordNodeGetEvent(n_rec)) is ev
    assert check(hip.hipGraphEventWaitNodeGetEvent(n_wait)) is ev
    inner = check(hip.hipGraphChildGraphNodeGetGraph(n_child))
    assert check(hip.hipGraphGetNodes(inner))[1] == 1  # a clone: the later node is not in it
    types = [check(hip.hipGraphNodeGetType(n)) for n in check(hip.hipGraphGetNodes(g))[0]]
    assert types == [NT.hipGraphNodeTypeMemset, NT.hipGraphNodeTypeMemcpy, NT.hipGraphNodeTypeMemcpy,
                     NT.hipGraphNodeTypeHost, NT.hipGraphNodeTypeHost, NT.hipGraphNodeTypeEmpty,
                     NT.hipGraphNodeTypeEventRecord, NT.hipGraphNodeTypeWaitEvent, NT.hipGraphNodeTypeGraph]
    run(g, stream, times=2)
    assert calls == ["py", ("c", 0x40), "child"] * 2
    want = np.zeros(256, np.uint8)
    rows = np.lib.stride_tricks.as_strided(want, shape=(3, 8), strides=(32, 1))
    rows[:] = np.frombuffer(np.array([0x11223344] * 2, "<u4").tobytes(), np.uint8)
    want[128:144] = host_in
    assert np.array_equal(host_out, want) and np.array_equal(to_host(buf, want), want)  # padding untouched
    assert hip.hipEventQuery(ev) == (E.hipSuccess,)
    check(hip.hipGraphDestroy(child))
    check(hip.hipGraphDestroy(g))
    check(hip.hipEventDestroy(ev))


def test_memcpy_3d_node_and_generic_add_node(stream: Any) -> None:
    src = to_device(np.arange(64, dtype=np.uint8))
    dst = check(hip.hipMalloc(64))
    check(hip.hipMemset(dst, 0xEE, 64))
    p = hip.hipMemcpy3DParms()
    p.srcPtr.ptr, p.srcPtr.pitch, p.srcPtr.xsize, p.srcPtr.ysize = src, 16, 16, 4
    p.dstPtr.ptr, p.dstPtr.pitch, p.dstPtr.xsize, p.dstPtr.ysize = dst, 16, 16, 4
    p.srcPos.x, p.srcPos.y = 2, 1
    p.extent.width, p.extent.height, p.extent.depth = 4, 2, 1
    p.kind = K.hipMemcpyDeviceToDevice
    g = graph()
    node = check(hip.hipGraphAddMemcpyNode(g, 0, p))[0]
    params = hip.hipGraphNodeParams(type=NT.hipGraphNodeTypeMemset)
    params.memset = hip.hipMemsetParams(dst=int(dst) + 48, elementSize=2, height=1, width=8, value=0xABCD)
    node2 = check(hip.hipGraphAddNode(g, 1, params, pDependencies=[node]))[0]
    assert check(hip.hipGraphNodeGetType(node2)) == NT.hipGraphNodeTypeMemset
    run(g, stream)
    want = np.full((4, 16), 0xEE, np.uint8)
    want[0:2, 0:4] = np.arange(64, dtype=np.uint8).reshape(4, 16)[1:3, 2:6]
    want[3] = np.frombuffer(np.full(8, 0xABCD, "<u2").tobytes(), np.uint8)
    assert np.array_equal(to_host(dst, want), want)
    out = hip.hipMemcpy3DParms()
    check(hip.hipGraphMemcpyNodeGetParams(node, out))
    assert out.extent.width == 4 and out.srcPos.x == 2 and int(out.dstPtr.ptr) == int(dst)
    bad = hip.hipMemcpy3DParms()
    bad.srcPtr.ptr, bad.srcPtr.pitch, bad.dstPtr.ptr, bad.dstPtr.pitch = src, 4, dst, 16
    bad.srcPtr.xsize, bad.extent.width, bad.kind = 8, 4, K.hipMemcpyDefault
    assert hip.hipGraphAddMemcpyNode(g, 0, bad)[0] == E.hipErrorInvalidPitchValue  # hipMemcpy3D's check
    assert hip.hipGraphAddMemcpyNode(g, 0, None)[0] == E.hipErrorInvalidValue
    check(hip.hipGraphDestroy(g))
    for d in (src, dst):
        check(hip.hipFree(d))


def test_structure_queries_and_edges(stream: Any) -> None:
    g = graph()
    a, b, c = (check(hip.hipGraphAddEmptyNode(g, 0))[0] for _ in range(3))
    # hip-python 6.2's own call passes one NULL dependency: any numDependencies > 0 is hipErrorInvalidValue
    assert hip.hipGraphAddEmptyNode(g, 1) == (E.hipErrorInvalidValue, None, None)
    assert hip.hipGraphAddDependencies(g, 1) == (E.hipErrorInvalidValue, None, None)
    assert hip.hipGraphAddDependencies(g, 0) == (E.hipSuccess, None, None)
    assert hip.hipGraphAddDependencies(g, 2, from_=[a, b], to=[b, c])[0] == E.hipSuccess
    assert hip.hipGraphAddDependencies(g, 1, from_=[a], to=[b])[0] == E.hipErrorInvalidValue  # exists already
    assert hip.hipGraphAddEmptyNode(g, 2, pDependencies=[a, a])[0] == E.hipErrorInvalidValue
    err, frm, to, count = hip.hipGraphGetEdges(g)
    assert err == E.hipSuccess and count == 2
    assert [int(x) for x in frm] == [int(a), int(b)] and [int(x) for x in to] == [int(b), int(c)]
    assert [int(x) for x in check(hip.hipGraphNodeGetDependentNodes(a))[0]] == [int(b)]
    assert check(hip.hipGraphNodeGetDependencies(a)) == (None, 0)
    check(hip.hipGraphAddDependencies(g, 1, from_=[c], to=[a]))  # a cycle
    assert hip.hipGraphGetNodes(g)[0] == E.hipErrorInvalidValue
    assert hip.hipGraphInstantiate(g, None, 0)[0] == E.hipErrorInvalidValue
    assert hip.hipGraphRemoveDependencies(g, 1, from_=[c], to=[a])[0] == E.hipSuccess
    assert hip.hipGraphRemoveDependencies(g, 1, from_=[c], to=[a])[0] == E.hipErrorInvalidValue
    clone = check(hip.hipGraphClone(g))
    cb = check(hip.hipGraphNodeFindInClone(b, clone))
    assert int(cb) != int(b) and check(hip.hipGraphGetNodes(clone))[1] == 3
    assert hip.hipGraphNodeFindInClone(b, g)[0] == E.hipErrorInvalidValue  # g is no clone
    check(hip.hipGraphDestroyNode(b))
    assert check(hip.hipGraphGetEdges(g)) == (None, None, 0) and check(hip.hipGraphGetEdges(clone))[2] == 2
    assert hip.hipGraphNodeGetType(b)[0] == E.hipErrorInvalidValue  # destroyed
    assert check(hip.hipGraphGetRootNodes(g))[1] == 2
    check(hip.hipGraphDestroy(clone))
    check(hip.hipGraphDestroy(g))
    assert hip.hipGraphDestroy(g) == (E.hipErrorIllegalState,)
    assert hip.hipGraphDestroy(None) == (E.hipErrorInvalidValue,)
    assert hip.hipGraphGetNodes(g)[0] == E.hipErrorInvalidValue
    assert hip.hipGraphCreate(1) == (E.hipErrorInvalidValue, None)


def test_debug_dot_print(tmp_path: Any) -> None:
    g = graph()
    a = check(hip.hipGraphAddEmptyNode(g, 0))[0]
    check(hip.hipGraphAddEmptyNode(g, 1, pDependencies=[a]))
    path = tmp_path / "graph.dot"
    assert hip.hipGraphDebugDotPrint(g, str(path).encode(), 0) == (E.hipSuccess,)
    text = path.read_text()
    assert text.startswith("digraph dot {") and text.count(" -> ") == 1
    assert hip.hipGraphDebugDotPrint(g, str(tmp_path / "no" / "such" / "dir.dot"), 0) == (E.hipErrorOperatingSystem,)
    assert hip.hipGraphDebugDotPrint(g, None, 0) == (E.hipErrorInvalidValue,)
    check(hip.hipGraphDestroy(g))


# --- parameters ------------------------------------------------------------------------------------------------


def test_node_parameters_and_executable_graph_setters(stream: Any, buf: Any) -> None:
    g = graph()
    calls: list[Any] = []
    n_host = check(hip.hipGraphAddHostNode(g, 0, hip.hipHostNodeParams(fn=calls.append, userData=1)))[0]
    n_fill = check(hip.hipGraphAddMemsetNode(g, 0, hip.hipMemsetParams(dst=buf, elementSize=1, height=1,
                                                                       width=8, value=5)))[0]
    n_copy = check(hip.hipGraphAddMemcpyNode1D(g, 0, int(buf) + 64, buf, 8, K.hipMemcpyDeviceToDevice))[0]
    got = hip.hipHostNodeParams()
    check(hip.hipGraphHostNodeGetParams(n_host, got))
    assert got.fn == calls.append and got.userData == 1
    fill = hip.hipMemsetParams()
    check(hip.hipGraphMemsetNodeGetParams(n_fill, fill))
    assert (fill.width, fill.value, fill.elementSize) == (8, 5, 1)
    assert hip.hipGraphMemsetNodeGetParams(n_host, fill) == (E.hipErrorInvalidValue,)  # not a memset node
    check(hip.hipGraphHostNodeSetParams(n_host, hip.hipHostNodeParams(fn=calls.append, userData=2)))
    e = check(hip.hipGraphInstantiateWithFlags(g, 0))
    check(hip.hipGraphExecHostNodeSetParams(e, n_host, hip.hipHostNodeParams(fn=calls.append, userData=3)))
    check(hip.hipGraphExecMemsetNodeSetParams(e, n_fill, hip.hipMemsetParams(dst=int(buf) + 8, elementSize=1,
                                                                               height=1, width=8, value=6)))
    check(hip.hipGraphExecMemcpyNodeSetParams1D(e, n_copy, int(buf) + 72, int(buf) + 8, 8, K.hipMemcpyDeviceToDevice))
    assert hip.hipGraphExecMemcpyNodeSetParams1D(e, n_copy, int(buf) + 72, buf, 8,
                                                 K.hipMemcpyDefault) == (E.hipErrorInvalidValue,)  # another kind
    assert hip.hipGraphMemcpyNodeSetParams1D(n_copy, buf, buf, 8, K.hipMemcpyDefault) == (E.hipErrorInvalidValue,)
    assert hip.hipGraphHostNodeSetParams(n_host, hip.hipHostNodeParams()) == (E.hipErrorInvalidValue,)  # no fn
    assert check(hip.hipGraphNodeGetEnabled(e, n_fill)) == 1
    assert hip.hipGraphNodeGetEnabled(e, n_host) == (E.hipErrorInvalidValue, None)  # host nodes cannot
    check(hip.hipGraphLaunch(e, stream))
    check(hip.hipStreamSynchronize(stream))
    data = to_host(buf, np.zeros(256, np.uint8))
    assert calls == [3] and np.array_equal(data[8:16], np.full(8, 6)) and np.array_equal(data[72:80], np.full(8, 6))
    assert not data[:8].any() and not data[64:72].any()  # the graph's own nodes were not changed ... in the exec
    check(hip.hipGraphNodeSetEnabled(e, n_fill, 0))
    check(hip.hipGraphExecMemsetNodeSetParams(e, n_fill, hip.hipMemsetParams(dst=buf, elementSize=1, height=1,
                                                                               width=8, value=7)))
    check(hip.hipGraphLaunch(e, stream))
    check(hip.hipStreamSynchronize(stream))
    assert not to_host(buf, np.zeros(256, np.uint8))[:8].any()  # disabled
    run(g, stream)  # ... and the graph keeps its own parameters (2, fill 5 at 0, copy 0 -> 64)
    data = to_host(buf, np.zeros(256, np.uint8))
    assert calls == [3, 3, 2] and np.array_equal(data[:8], np.full(8, 5)) and np.array_equal(data[64:72], np.full(8, 5))
    check(hip.hipGraphExecDestroy(e))
    assert hip.hipGraphLaunch(e, stream) == (E.hipErrorInvalidValue,)
    assert hip.hipGraphExecDestroy(e) == (E.hipErrorInvalidValue,)
    check(hip.hipGraphDestroy(g))


def test_memset_node_checks(buf: Any) -> None:
    g = graph()
    for params in (None, hip.hipMemsetParams(dst=buf, elementSize=3, height=1, width=4),
                   hip.hipMemsetParams(dst=buf, elementSize=1, height=0, width=4),
                   hip.hipMemsetParams(dst=buf, elementSize=1, height=1, width=0),
                   hip.hipMemsetParams(dst=buf, elementSize=4, height=2, pitch=4, width=2),  # pitch < row
                   hip.hipMemsetParams(dst=buf, elementSize=1, height=1, width=257),  # past the allocation
                   hip.hipMemsetParams(dst=np.zeros(8, np.uint8), elementSize=1, height=1, width=8)):  # host memory
        assert hip.hipGraphAddMemsetNode(g, 0, params) == (E.hipErrorInvalidValue, None, None)
    assert hip.hipGraphAddMemsetNode(None, 0, hip.hipMemsetParams()) == (E.hipErrorInvalidValue, None, None)
    assert check(hip.hipGraphGetNodes(g)) == (None, 0)
    check(hip.hipGraphDestroy(g))


def test_kernel_and_symbol_nodes(stream: Any) -> None:
    g = graph()
    assert hip.hipGraphAddKernelNode(g, 0, hip.hipKernelNodeParams()) == (E.hipErrorInvalidValue, None, None)
    assert hip.hipGraphAddKernelNode(g, 0, hip.hipKernelNodeParams(func=0x1000))[0] == \
        E.hipErrorInvalidDeviceFunction
    x = to_device(np.ones(4))
    h = check(hipblas.hipblasCreate())
    check(hipblas.hipblasSetStream(h, stream))
    alpha = ctypes.c_double(2.0)
    check(hip.hipStreamBeginCapture(stream, GLOBAL))
    check(hipblas.hipblasDscal(h, 4, ctypes.addressof(alpha), x, 1))
    captured = check(hip.hipStreamEndCapture(stream))
    kernel = check(hip.hipGraphGetNodes(captured))[0][0]
    params = hip.hipKernelNodeParams(func=0x1000)
    check(hip.hipGraphKernelNodeGetParams(kernel, params))
    assert params.func is None and params.gridDim.x == 1  # no hipFunction_t in rocmath
    assert hip.hipGraphKernelNodeSetParams(kernel, hip.hipKernelNodeParams(func=0x1000)) == \
        (E.hipErrorInvalidDeviceFunction,)
    attr = hip.hipLaunchAttributeID
    value = hip.hipLaunchAttributeValue(cooperative=1)
    check(hip.hipGraphKernelNodeSetAttribute(kernel, attr.hipLaunchAttributeCooperative, value))
    out = hip.hipLaunchAttributeValue()
    check(hip.hipGraphKernelNodeGetAttribute(kernel, attr.hipLaunchAttributeCooperative, out))
    assert out.cooperative == 1
    assert hip.hipGraphKernelNodeGetAttribute(kernel, attr.hipLaunchAttributePriority, out) == (E.hipErrorInvalidValue,)
    assert hip.hipGraphKernelNodeSetAttribute(kernel, attr.hipLaunchAttributePriority,
                                              hip.hipLaunchAttributeValue(priority=0)) == (E.hipErrorInvalidValue,)
    clone = check(hip.hipGraphClone(captured))
    other = check(hip.hipGraphGetNodes(clone))[0][0]
    check(hip.hipGraphKernelNodeCopyAttributes(kernel, other))
    check(hip.hipGraphKernelNodeGetAttribute(other, attr.hipLaunchAttributeCooperative, out))
    assert out.cooperative == 1
    check(hip.hipGraphDestroy(clone))
    assert hip.hipGraphAddMemcpyNodeFromSymbol(g, 0, x, 0x10, 8, 0, K.hipMemcpyDefault)[0] == E.hipErrorInvalidSymbol
    assert hip.hipGraphAddMemcpyNodeToSymbol(g, 0, 0x10, x, 0, 0, K.hipMemcpyDefault)[0] == E.hipErrorInvalidValue
    assert hip.hipGraphMemcpyNodeSetParamsToSymbol(kernel, None, x, 8, 0, K.hipMemcpyDefault) == \
        (E.hipErrorInvalidSymbol,)
    run(captured, stream, times=2)
    assert np.array_equal(to_host(x, np.ones(4)), np.full(4, 4.0))
    for gr in (g, captured):
        check(hip.hipGraphDestroy(gr))
    check(hipblas.hipblasDestroy(h))
    check(hip.hipFree(x))


def test_exec_update(stream: Any, buf: Any) -> None:
    def fill_graph(value: int, nodes: int = 1) -> Any:
        g = graph()
        for i in range(nodes):
            check(hip.hipGraphAddMemsetNode(g, 0, hip.hipMemsetParams(dst=int(buf) + 8 * i, elementSize=1, height=1,
                                                                      width=8, value=value)))
        return g

    g1, g2, g3 = fill_graph(1), fill_graph(2), fill_graph(3, 2)
    e = check(hip.hipGraphInstantiate(g1, None, 0))[0]
    assert hip.hipGraphExecUpdate(hGraphExec=e, hGraph=g2) == (
        E.hipSuccess, None, hip.hipGraphExecUpdateResult.hipGraphExecUpdateSuccess)
    err, node, result = hip.hipGraphExecUpdate(e, g3)
    assert (err, node, result) == (E.hipErrorGraphExecUpdateFailure, None,
                                   hip.hipGraphExecUpdateResult.hipGraphExecUpdateErrorTopologyChanged)
    g4 = graph()
    empty = check(hip.hipGraphAddEmptyNode(g4, 0))[0]
    err, node, result = hip.hipGraphExecUpdate(e, g4)
    assert err == E.hipErrorGraphExecUpdateFailure and int(node) == int(empty)
    assert result == hip.hipGraphExecUpdateResult.hipGraphExecUpdateErrorNodeTypeChanged
    check(hip.hipGraphLaunch(e, stream))
    check(hip.hipStreamSynchronize(stream))
    assert np.array_equal(to_host(buf, np.zeros(256, np.uint8))[:8], np.full(8, 2))
    check(hip.hipGraphExecDestroy(e))
    for g in (g1, g2, g3, g4):
        check(hip.hipGraphDestroy(g))


def test_instantiate_variants_and_upload(stream: Any) -> None:
    g = graph()
    check(hip.hipGraphAddEmptyNode(g, 0))
    assert hip.hipGraphInstantiateWithFlags(g, 2) == (E.hipErrorInvalidValue, None)
    params = hip.hipGraphInstantiateParams(flags=16)
    assert hip.hipGraphInstantiateWithParams(g, params) == (E.hipErrorInvalidValue, None)
    assert params.result_out == hip.hipGraphInstantiateResult.hipGraphInstantiateError
    params = hip.hipGraphInstantiateParams(flags=2, uploadStream=stream)
    err, e = hip.hipGraphInstantiateWithParams(g, params)
    assert err == E.hipSuccess and params.result_out == hip.hipGraphInstantiateResult.hipGraphInstantiateSuccess
    assert hip.hipGraphUpload(e, stream) == (E.hipSuccess,)
    assert hip.hipGraphUpload(e, 0x4321) == (E.hipErrorContextIsDestroyed,)
    assert hip.hipGraphLaunch(e, 0x4321) == (E.hipErrorContextIsDestroyed,)
    assert hip.hipGraphUpload(None, stream) == (E.hipErrorInvalidValue,)
    check(hip.hipGraphExecDestroy(e))
    check(hip.hipGraphDestroy(g))


# --- user objects and graph memory -------------------------------------------------------------------------------


def test_user_objects_die_with_their_last_reference() -> None:
    destroyed: list[Any] = []
    flags = hip.hipUserObjectFlags.hipUserObjectNoDestructorSync
    assert hip.hipUserObjectCreate("data", destroyed.append, 1, 0) == (E.hipErrorInvalidValue, None)
    obj = check(hip.hipUserObjectCreate("data", destroyed.append, 2, int(flags)))
    check(hip.hipUserObjectRetain(obj, 1))
    g = graph()
    check(hip.hipGraphRetainUserObject(g, obj, 1, int(hip.hipUserObjectRetainFlags.hipGraphUserObjectMove)))
    e = check(hip.hipGraphInstantiate(g, None, 0))[0]  # the executable graph holds one of its own
    check(hip.hipUserObjectRelease(obj, 2))
    check(hip.hipGraphDestroy(g))
    assert destroyed == []
    check(hip.hipGraphExecDestroy(e))
    assert destroyed == ["data"]
    assert hip.hipUserObjectRelease(obj, 0) == (E.hipErrorInvalidValue,)


def test_graph_memory_nodes(stream: Any) -> None:
    used = ctypes.c_uint64()
    check(hip.hipDeviceGetGraphMemAttribute(0, hip.hipGraphMemAttributeType.hipGraphMemAttrUsedMemCurrent, used))
    before = used.value
    props = hip.hipMemPoolProps()
    props.allocType = hip.hipMemAllocationType.hipMemAllocationTypePinned
    props.location.type, props.location.id = hip.hipMemLocationType.hipMemLocationTypeDevice, 0
    params = hip.hipMemAllocNodeParams(poolProps=props, bytesize=64)
    g = graph()
    alloc = check(hip.hipGraphAddMemAllocNode(g, 0, params))[0]
    assert params.dptr and check(hip.hipGraphNodeGetType(alloc)) == NT.hipGraphNodeTypeMemAlloc
    fill = check(hip.hipGraphAddMemsetNode(g, 1, hip.hipMemsetParams(dst=params.dptr, elementSize=1, height=1,
                                                                     width=64, value=9), pDependencies=[alloc]))[0]
    out = np.zeros(64, np.uint8)
    copy = check(hip.hipGraphAddMemcpyNode1D(g, 1, out, params.dptr, 64, K.hipMemcpyDeviceToHost,
                                             pDependencies=[fill]))[0]
    free = check(hip.hipGraphAddMemFreeNode(g, 1, params.dptr, pDependencies=[copy]))[0]
    assert hip.hipGraphAddMemFreeNode(g, 0, params.dptr)[0] == E.hipErrorInvalidValue  # freed once
    got = ctypes.c_void_p()
    check(hip.hipGraphMemFreeNodeGetParams(free, got))
    assert got.value == int(params.dptr)
    check(hip.hipDeviceGetGraphMemAttribute(0, hip.hipGraphMemAttributeType.hipGraphMemAttrUsedMemCurrent, used))
    assert used.value == before + 64
    assert hip.hipGraphClone(g)[0] == E.hipErrorNotSupported
    assert hip.hipGraphDestroyNode(alloc) == (E.hipErrorNotSupported,)
    run(g, stream)
    assert np.array_equal(out, np.full(64, 9))
    assert hip.hipGraphInstantiate(g, None, 0)[0] == E.hipErrorNotSupported  # instantiated once
    bad = hip.hipMemAllocNodeParams(poolProps=hip.hipMemPoolProps(), bytesize=64)
    assert hip.hipGraphAddMemAllocNode(g, 0, bad)[0] == E.hipErrorInvalidValue  # not pinned device memory
    check(hip.hipGraphDestroy(g))
    check(hip.hipDeviceSynchronize())
    check(hip.hipDeviceGetGraphMemAttribute(0, hip.hipGraphMemAttributeType.hipGraphMemAttrUsedMemCurrent, used))
    assert used.value == before
    high = ctypes.c_uint64(0)
    check(hip.hipDeviceSetGraphMemAttribute(0, hip.hipGraphMemAttributeType.hipGraphMemAttrUsedMemHigh, high))
    assert hip.hipDeviceSetGraphMemAttribute(0, hip.hipGraphMemAttributeType.hipGraphMemAttrUsedMemCurrent,
                                             high) == (E.hipErrorInvalidValue,)
    assert hip.hipDeviceGraphMemTrim(5) == (E.hipErrorInvalidDevice,)


def test_semaphore_nodes_name_no_semaphore() -> None:
    g = graph()
    node = check(hip.hipGraphAddExternalSemaphoresSignalNode(g, 0, hip.hipExternalSemaphoreSignalNodeParams()))[0]
    assert check(hip.hipGraphNodeGetType(node)) == NT.hipGraphNodeTypeExtSemaphoreSignal
    named = hip.hipExternalSemaphoreWaitNodeParams(extSemArray=0x1000, numExtSems=1)
    assert hip.hipGraphAddExternalSemaphoresWaitNode(g, 0, named)[0] == E.hipErrorInvalidValue
    out = hip.hipExternalSemaphoreSignalNodeParams(numExtSems=3)
    check(hip.hipGraphExternalSemaphoresSignalNodeGetParams(node, out))
    assert out.numExtSems == 0
    check(hip.hipGraphDestroy(g))


def test_capture_into_an_existing_graph(stream: Any, buf: Any) -> None:
    g = graph()
    first = check(hip.hipGraphAddMemsetNode(g, 0, hip.hipMemsetParams(dst=buf, elementSize=1, height=1, width=8,
                                                                      value=1)))[0]
    assert hip.hipStreamBeginCaptureToGraph(stream, g, 0x10, 0, GLOBAL) == (E.hipErrorNotSupported, None)
    assert hip.hipStreamBeginCaptureToGraph(stream, g, None, 1, GLOBAL) == (E.hipErrorInvalidValue, None)
    assert hip.hipStreamBeginCaptureToGraph(stream, None, None, 0, GLOBAL) == (E.hipErrorInvalidValue, None)
    err, deps = hip.hipStreamBeginCaptureToGraph(stream, g, None, 1, GLOBAL, dependencies=[first])
    assert err == E.hipSuccess and deps == [first]
    check(hip.hipMemsetAsync(int(buf) + 8, 2, 8, stream))
    assert int(check(hip.hipStreamEndCapture(stream))) == int(g)
    nodes, n = check(hip.hipGraphGetNodes(g))
    assert n == 2 and [int(x) for x in check(hip.hipGraphNodeGetDependencies(nodes[1]))[0]] == [int(first)]
    run(g, stream)
    assert np.array_equal(to_host(buf, np.zeros(256, np.uint8))[:16], np.repeat(np.array([1, 2], np.uint8), 8))
    check(hip.hipGraphDestroy(g))


def test_child_event_and_3d_setters_on_graphs_and_executable_graphs(stream: Any, buf: Any) -> None:
    def child_filling(value: int) -> Any:
        c = graph()
        check(hip.hipGraphAddMemsetNode(c, 0, hip.hipMemsetParams(dst=buf, elementSize=1, height=1, width=8,
                                                                  value=value)))
        return c

    one, two, other_shape = child_filling(1), child_filling(2), graph()
    check(hip.hipGraphAddEmptyNode(other_shape, 0))
    g = graph()
    node = check(hip.hipGraphAddChildGraphNode(g, 0, one))[0]
    start, old_ev, new_ev = (check(hip.hipEventCreate()) for _ in range(3))
    rec = check(hip.hipGraphAddEventRecordNode(g, 1, old_ev, pDependencies=[node]))[0]
    e = check(hip.hipGraphInstantiate(g, None, 0))[0]
    check(hip.hipGraphExecChildGraphNodeSetParams(e, node, two))
    assert hip.hipGraphExecChildGraphNodeSetParams(e, node, other_shape) == (E.hipErrorUnknown,)
    assert hip.hipGraphExecChildGraphNodeSetParams(e, node, g) == (E.hipErrorUnknown,)  # its own parent
    check(hip.hipGraphExecEventRecordNodeSetEvent(e, rec, new_ev))
    assert hip.hipGraphExecEventWaitNodeSetEvent(e, rec, new_ev) == (E.hipErrorInvalidValue,)  # not a wait node
    check(hip.hipEventRecord(start, stream))
    check(hip.hipGraphLaunch(e, stream))
    check(hip.hipStreamSynchronize(stream))
    assert to_host(buf, np.zeros(256, np.uint8))[0] == 2
    assert check(hip.hipEventElapsedTime(start, new_ev)) >= 0
    assert hip.hipEventElapsedTime(start, old_ev)[0] == E.hipErrorInvalidHandle  # never recorded
    check(hip.hipGraphEventRecordNodeSetEvent(rec, new_ev))
    assert check(hip.hipGraphEventRecordNodeGetEvent(rec)) is new_ev
    # a 3D memcpy node's parameters, on the graph and on an executable graph (the direction stays)
    p = hip.hipMemcpy3DParms()
    for side, ptr in ((p.srcPtr, buf), (p.dstPtr, int(buf) + 128)):
        side.ptr, side.pitch, side.xsize, side.ysize = ptr, 16, 16, 1
    p.extent.width, p.extent.height, p.extent.depth, p.kind = 8, 1, 1, K.hipMemcpyDeviceToDevice
    copy = check(hip.hipGraphAddMemcpyNode(g, 1, p, pDependencies=[rec]))[0]
    p.dstPtr.ptr = int(buf) + 192
    check(hip.hipGraphMemcpyNodeSetParams(copy, p))
    e2 = check(hip.hipGraphInstantiate(g, None, 0))[0]
    p.kind = K.hipMemcpyDefault
    assert hip.hipGraphExecMemcpyNodeSetParams(e2, copy, p) == (E.hipErrorInvalidValue,)
    p.kind, p.dstPtr.ptr = K.hipMemcpyDeviceToDevice, int(buf) + 224
    check(hip.hipGraphExecMemcpyNodeSetParams(e2, copy, p))
    check(hip.hipGraphLaunch(e2, stream))
    check(hip.hipStreamSynchronize(stream))
    data = to_host(buf, np.zeros(256, np.uint8))
    assert np.array_equal(data[224:232], np.ones(8)) and not data[192:200].any() and not data[128:136].any()
    for ex in (e, e2):
        check(hip.hipGraphExecDestroy(ex))
    for gr in (one, two, other_shape, g):
        check(hip.hipGraphDestroy(gr))
    for ev in (start, old_ev, new_ev):
        check(hip.hipEventDestroy(ev))


def test_driver_api_nodes(stream: Any, buf: Any) -> None:
    ctx = check(hip.hipCtxGetCurrent())
    g = graph()
    fill = hip.HIP_MEMSET_NODE_PARAMS(dst=buf, pitch=0, value=7, elementSize=1, width=16, height=1)
    assert hip.hipDrvGraphAddMemsetNode(g, 0, None, ctx) == (E.hipErrorInvalidValue, None, None)
    node = check(hip.hipDrvGraphAddMemsetNode(g, 0, fill, ctx))[0]
    c = hip.HIP_MEMCPY3D()
    c.srcMemoryType = c.dstMemoryType = hip.hipMemoryType.hipMemoryTypeDevice
    c.srcDevice, c.dstDevice, c.srcPitch, c.dstPitch = buf, int(buf) + 64, 16, 16
    c.WidthInBytes, c.Height, c.Depth = 16, 1, 1
    assert hip.hipDrvGraphAddMemcpyNode(g, 0, c, None) == (E.hipErrorInvalidValue, None, None)
    check(hip.hipDrvGraphAddMemcpyNode(g, 1, c, ctx, dependencies=[node]))
    run(g, stream)
    data = to_host(buf, np.zeros(256, np.uint8))
    assert np.array_equal(data[:16], np.full(16, 7)) and np.array_equal(data[64:80], np.full(16, 7))
    check(hip.hipGraphDestroy(g))


def test_graph_held_user_object_references() -> None:
    destroyed: list[Any] = []
    obj = check(hip.hipUserObjectCreate(1, destroyed.append, 1, 1))
    g = graph()
    check(hip.hipGraphRetainUserObject(g, obj, 2, 0))  # two new references for the graph
    clone = check(hip.hipGraphClone(g))  # and one for its clone
    check(hip.hipGraphReleaseUserObject(g, obj, 1))
    check(hip.hipUserObjectRelease(obj, 1))
    check(hip.hipGraphDestroy(g))
    assert destroyed == []
    check(hip.hipGraphDestroy(clone))
    assert destroyed == [1]
    assert hip.hipGraphRetainUserObject(None, obj, 1, 0) == (E.hipErrorInvalidValue,)


def test_add_node_from_generic_parameters(stream: Any, buf: Any) -> None:
    g, child = graph(), graph()
    calls: list[Any] = []
    ev = check(hip.hipEventCreate())

    def add(kind: Any, **members: Any) -> Any:
        params = hip.hipGraphNodeParams(type=kind)
        for name, value in members.items():
            setattr(params, name, value)
        return hip.hipGraphAddNode(g, 0, params)

    assert check(add(NT.hipGraphNodeTypeHost, host=hip.hipHostNodeParams(fn=calls.append, userData=5)))[0]
    assert check(add(NT.hipGraphNodeTypeGraph, graph=hip.hipChildGraphNodeParams(graph=child)))[0]
    assert check(add(NT.hipGraphNodeTypeEventRecord, eventRecord=hip.hipEventRecordNodeParams(event=ev)))[0]
    assert check(add(NT.hipGraphNodeTypeWaitEvent, eventWait=hip.hipEventWaitNodeParams(event=ev)))[0]
    assert add(NT.hipGraphNodeTypeKernel, kernel=hip.hipKernelNodeParams(func=8))[0] == \
        E.hipErrorInvalidDeviceFunction
    assert add(NT.hipGraphNodeTypeHost)[0] == E.hipErrorInvalidValue  # no fn
    assert add(NT.hipGraphNodeTypeCount)[0] == E.hipErrorInvalidValue
    props = hip.hipMemPoolProps()
    props.allocType = hip.hipMemAllocationType.hipMemAllocationTypePinned
    props.location.type = hip.hipMemLocationType.hipMemLocationTypeDevice
    alloc = check(add(NT.hipGraphNodeTypeMemAlloc, alloc=hip.hipMemAllocNodeParams(poolProps=props, bytesize=32)))[0]
    got = hip.hipMemAllocNodeParams()
    check(hip.hipGraphMemAllocNodeGetParams(alloc, got))
    assert got.bytesize == 32 and got.dptr
    assert check(add(NT.hipGraphNodeTypeMemFree, free=hip.hipMemFreeNodeParams(dptr=got.dptr)))[0]
    assert check(hip.hipGraphGetNodes(g))[1] == 6
    run(g, stream)
    assert calls == [5]
    check(hip.hipGraphDestroy(child))
    check(hip.hipGraphDestroy(g))
    check(hip.hipEventDestroy(ev))


def test_remaining_setters_and_their_statuses(stream: Any, buf: Any) -> None:
    g = graph()
    ev1, ev2 = check(hip.hipEventCreate()), check(hip.hipEventCreate())
    wait = check(hip.hipGraphAddEventWaitNode(g, 0, ev1))[0]
    check(hip.hipGraphEventWaitNodeSetEvent(wait, ev2))
    assert check(hip.hipGraphEventWaitNodeGetEvent(wait)) is ev2
    assert hip.hipGraphEventWaitNodeSetEvent(wait, None) == (E.hipErrorInvalidValue,)
    copy = check(hip.hipGraphAddMemcpyNode1D(g, 0, buf, int(buf) + 64, 8, K.hipMemcpyDeviceToDevice))[0]
    check(hip.hipGraphMemcpyNodeSetParams1D(copy, int(buf) + 8, int(buf) + 72, 8, K.hipMemcpyDeviceToDevice))
    sem = check(hip.hipGraphAddExternalSemaphoresWaitNode(g, 0, hip.hipExternalSemaphoreWaitNodeParams()))[0]
    check(hip.hipGraphExternalSemaphoresWaitNodeSetParams(sem, hip.hipExternalSemaphoreWaitNodeParams()))
    assert hip.hipGraphExternalSemaphoresSignalNodeSetParams(sem, hip.hipExternalSemaphoreSignalNodeParams()) == \
        (E.hipErrorInvalidValue,)  # not a signal node
    out = hip.hipExternalSemaphoreWaitNodeParams()
    check(hip.hipGraphExternalSemaphoresWaitNodeGetParams(sem, out))
    e = check(hip.hipGraphInstantiate(g, None, 0))[0]
    check(hip.hipGraphExecExternalSemaphoresWaitNodeSetParams(e, sem, hip.hipExternalSemaphoreWaitNodeParams()))
    assert hip.hipGraphExecExternalSemaphoresSignalNodeSetParams(e, sem, hip.hipExternalSemaphoreSignalNodeParams()) \
        == (E.hipErrorInvalidValue,)
    assert hip.hipGraphExecKernelNodeSetParams(e, copy, hip.hipKernelNodeParams(func=4))[0] == \
        E.hipErrorInvalidDeviceFunction
    assert hip.hipGraphExecKernelNodeSetParams(None, copy, hip.hipKernelNodeParams(func=4)) == (E.hipErrorInvalidValue,)
    for call in (lambda: hip.hipGraphMemcpyNodeSetParamsFromSymbol(copy, buf, 0x40, 8, 0, K.hipMemcpyDefault),
                 lambda: hip.hipGraphExecMemcpyNodeSetParamsFromSymbol(e, copy, buf, 0x40, 8, 0, K.hipMemcpyDefault),
                 lambda: hip.hipGraphExecMemcpyNodeSetParamsToSymbol(e, copy, 0x40, buf, 8, 0, K.hipMemcpyDefault)):
        assert call() == (E.hipErrorInvalidSymbol,)
    assert hip.hipGraphExecMemcpyNodeSetParamsToSymbol(None, copy, 0x40, buf, 8, 0, K.hipMemcpyDefault) == \
        (E.hipErrorInvalidValue,)
    check(hip.hipGraphExecDestroy(e))
    check(hip.hipStreamSynchronize(stream))
    run(g, stream)
    data = to_host(buf, np.zeros(256, np.uint8))
    assert not data[:16].any()  # buf + 72 held zeros
    check(hip.hipDeviceGraphMemTrim(0))
    check(hip.hipGraphDestroy(g))
    for ev in (ev1, ev2):
        check(hip.hipEventDestroy(ev))


def test_allocations_are_unsafe_during_a_capture_and_copy_with_stream_is_captured(stream: Any, buf: Any) -> None:
    # hipMalloc and friends refuse a global capture and invalidate it (relaxed mode allows them); a
    # hipMemcpyWithStream on the capturing stream becomes a copy node instead of synchronizing.
    for alloc in (lambda: hip.hipMalloc(64), lambda: hip.hipHostMalloc(64), lambda: hip.hipMallocManaged(64),
                  lambda: hip.hipMallocPitch(64, 2)):
        check(hip.hipStreamBeginCapture(stream, GLOBAL))
        assert alloc()[0] == E.hipErrorStreamCaptureUnsupported
        assert hip.hipStreamEndCapture(stream) == (E.hipErrorStreamCaptureInvalidated, None)
    check(hip.hipStreamBeginCapture(stream, RELAXED))
    extra = check(hip.hipMalloc(64))
    g = check(hip.hipStreamEndCapture(stream))
    check(hip.hipFree(extra))
    check(hip.hipGraphDestroy(g))
    src = to_device(np.arange(32, dtype=np.uint8))
    check(hip.hipStreamBeginCapture(stream, GLOBAL))
    check(hip.hipMemcpyWithStream(buf, src, 32, K.hipMemcpyDeviceToDevice, stream))
    g = check(hip.hipStreamEndCapture(stream))
    assert np.array_equal(to_host(buf, np.zeros(256, np.uint8)), np.zeros(256, np.uint8))  # not run yet
    run(g, stream)
    assert np.array_equal(to_host(buf, np.zeros(256, np.uint8))[:32], np.arange(32, dtype=np.uint8))
    check(hip.hipGraphDestroy(g))
    check(hip.hipFree(src))
