"""Stream capture and graphs (``hipGraph_t``, ``hipGraphExec_t``): record stream work once, replay it.

While a stream captures (:meth:`Stream.begin_capture <rocmath.Stream.begin_capture>`), every operation
that reaches it through :meth:`~rocmath.Stream.enqueue` -- kernel launches of all the libraries, copies,
fills, host functions -- becomes a node of a :class:`Graph` instead of running: the same closure,
name and description, depending on what the stream captured before.  :meth:`Graph.instantiate` makes
a :class:`GraphExec`, and :meth:`GraphExec.launch` queues the nodes on a stream in a deterministic
topological order (Kahn's algorithm over the nodes in the order they were added, as HIP's runtime
orders them), as ordinary stream work: ordered with the stream, launched twice it runs twice.  A
replay reads device memory as it is then (a captured gemm replayed after its inputs changed computes
the new product); host scalars (host pointer mode) keep the values they had at capture, as on ROCm.

Capture follows HIP (hip_graph.cpp, hip_stream.cpp, hip_event.cpp of ROCm's clr) and CUDA:

- modes :class:`CaptureMode` (``hipStreamCaptureMode``); the mode of each host thread
  (:func:`exchange_capture_mode`) decides which calls an active capture forbids;
- an event recorded on a capturing stream is a captured event: it marks the capture's current nodes;
  another stream waiting on it joins the capture (a fork), and the stream that began the capture must
  wait on an event recorded on every joined stream before it ends the capture
  (:class:`~rocmath.errors.StreamCaptureUnjoinedError` otherwise);
- illegal operations fail with HIP's statuses and, where HIP does, invalidate the capture (ending it
  then raises :class:`~rocmath.errors.StreamCaptureInvalidatedError`): synchronizing or querying a
  capturing stream (:class:`~rocmath.errors.StreamCaptureUnsupportedError`), waiting for captured work
  (``task.wait()``: a library reading a result on the host), an event synchronize or query of an event
  of a capturing stream (:class:`~rocmath.errors.CapturedEventError`), a device synchronize, a free in
  global or thread-local mode, and null-stream work while a blocking stream of its device captures
  (:class:`~rocmath.errors.StreamCaptureImplicitError`: it would synchronize with it).

Memory a captured operation needs stays valid for every replay until the graph, its clones and its
executable graphs are gone: the nodes keep the operations' arguments (temporaries included); a
stream-ordered free issued during the capture (a library giving back a per-call buffer, a handle growing
its workspace) is deferred until then; and a handle-managed workspace the captured work uses is taken
over by the graph when the capture ends (the handle makes a new one for its later calls).  The memory is
given back at the next synchronize after the last of them is dropped.

Kernel nodes come from capture only: rocmath has no device code objects to build one from.
"""

from __future__ import annotations

import collections
import enum
import itertools
import threading
import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from . import device as _device
from . import memory as _memory
from . import stream as _stream
from .errors import (
    CapturedEventError,
    GraphExecUpdateFailureError,
    HipInvalidHandleError,
    HipInvalidValueError,
    HipNotSupportedError,
    IllegalStateError,
    StreamCaptureImplicitError,
    StreamCaptureInvalidatedError,
    StreamCaptureIsolationError,
    StreamCaptureMergeError,
    StreamCaptureUnjoinedError,
    StreamCaptureUnmatchedError,
    StreamCaptureUnsupportedError,
    StreamCaptureWrongThreadError,
)
from .stream import Event, Stream, Task, _noop, _State

__all__ = [
    "CaptureMode", "CaptureStatus", "CapturedTask", "ChildGraphNode", "EmptyNode", "EventRecordNode", "EventWaitNode",
    "ExecUpdateResult", "Graph", "GraphExec", "Node", "NodeType", "WorkNode", "begin_capture", "capture_info",
    "capture_status", "check_unsafe", "end_capture", "exchange_capture_mode", "update_capture_dependencies",
]


class CaptureMode(enum.IntEnum):
    """``hipStreamCaptureMode``: which calls an active capture forbids.

    ``global_`` (``hipStreamCaptureModeGlobal``): unsafe calls (frees, synchronizing other streams) fail
    in every thread whose own mode is not relaxed; ``thread_local``: only in the thread that began the
    capture; ``relaxed``: nowhere.
    """

    global_ = 0
    thread_local = 1
    relaxed = 2


class CaptureStatus(enum.IntEnum):
    """``hipStreamCaptureStatus`` of a stream."""

    none = 0
    active = 1
    invalidated = 2


class NodeType(enum.IntEnum):
    """``hipGraphNodeType``."""

    kernel = 0
    memcpy = 1
    memset = 2
    host = 3
    graph = 4
    empty = 5
    wait_event = 6
    event_record = 7
    ext_semaphore_signal = 8
    ext_semaphore_wait = 9
    mem_alloc = 10
    mem_free = 11
    memcpy_from_symbol = 12
    memcpy_to_symbol = 13


class ExecUpdateResult(enum.IntEnum):
    """``hipGraphExecUpdateResult``: why :meth:`GraphExec.update` refused a graph."""

    success = 0
    error = 1
    topology_changed = 2
    node_type_changed = 3
    function_changed = 4
    parameters_changed = 5
    not_supported = 6
    unsupported_function_change = 7


# Graph structure and the capture bookkeeping change under one lock (graphs are built by few
# threads, and a capture may span streams of several threads).
_lock = threading.RLock()
_node_ids = itertools.count(1)
_graph_ids = itertools.count(1)
_capture_ids = itertools.count(1)

# The work a stream's category of info becomes as a node (anything else is a kernel).
_NODE_TYPES = {"copy": NodeType.memcpy, "memset": NodeType.memset, "callback": NodeType.host}


# --- resources: what a graph keeps for its replays -------------------------------------------------


class _Resources:
    """Memory a capture took over: stream-ordered frees issued during it (run once no graph, clone or
    executable graph of it is left) and handle workspaces it adopted (freed then).  Graphs, clones,
    executable graphs and their queued launches hold it; the last one dropped hands the frees to the
    streams' next synchronize (:func:`rocmath.stream.release_graph_memory`)."""

    def __init__(self) -> None:
        self.frees: list[Callable[[], Any]] = []
        self.ptrs: list[int] = []
        weakref.finalize(self, _stream.defer_graph_release, self.frees, self.ptrs)


# --- nodes ----------------------------------------------------------------------------------------------


class Node:
    """A node of a :class:`Graph` (``hipGraphNode_t``).

    Attributes
    ----------
    type
        Its :class:`NodeType`.
    ident
        A number naming it in debug output; a clone of the graph keeps it
        (:meth:`Graph.find_in_clone`).
    """

    type: NodeType = NodeType.empty

    def __init__(self) -> None:
        self.ident = next(_node_ids)
        self._graph: weakref.ref[Graph] | None = None  # (weak: a graph and its nodes make no cycle)
        self._deps: list[Node] = []
        self._edges: list[Node] = []
        self.enabled = True  # (an executable graph's nodes: hipGraphNodeSetEnabled)

    # -- structure -----------------------------------------------------------------------------------

    @property
    def graph(self) -> Graph | None:
        """The graph the node is in (None once it or its graph was destroyed)."""
        ref = self._graph
        return None if ref is None else ref()

    @property
    def dependencies(self) -> list[Node]:
        """The nodes this one depends on, in the order the edges were added."""
        self._check()
        return list(self._deps)

    @property
    def dependents(self) -> list[Node]:
        """The nodes depending on this one, in the order the edges were added."""
        self._check()
        return list(self._edges)

    def destroy(self) -> None:
        """Remove the node and its edges from its graph (``hipGraphDestroyNode``)."""
        self._check()
        if self.type in (NodeType.mem_alloc, NodeType.mem_free):
            raise HipNotSupportedError("graph memory nodes cannot be destroyed", arg="node")
        assert self.graph is not None
        self.graph._remove(self)

    def _check(self) -> None:
        if self.graph is None:
            raise HipInvalidValueError("the node was destroyed", arg="node")

    # -- behaviour -----------------------------------------------------------------------------------

    def _copy(self) -> Node:
        """A node with the same parameters, unlinked (a graph clone's)."""
        node = object.__new__(type(self))
        node.__dict__.update(self.__dict__)
        node._graph, node._deps, node._edges = None, [], []
        return node

    def _queue(self, stream: Stream, hold: Any) -> None:
        """Queue the node's work on ``stream`` (a launch); ``hold`` stays alive until it ran."""

    def _take(self, other: Node) -> None:
        """Take ``other``'s parameters (an executable graph's update)."""

    def label(self) -> str:
        """What the node does, in words (debug output)."""
        return self.type.name

    def __repr__(self) -> str:
        return f"<rocmath graph node {self.ident}: {self.label()}>"


class EmptyNode(Node):
    """A node doing nothing: a point other nodes depend on (``hipGraphAddEmptyNode``)."""

    type = NodeType.empty


class WorkNode(Node):
    """Stream work: a captured operation (kernel launch, copy, fill, host function) or one made by a
    ``Graph.add_*_node`` method, run at each launch as the stream would have run it.

    Attributes
    ----------
    fn, name, info, keep
        What :meth:`~rocmath.Stream.enqueue` was given: the closure, its name, its description and the
        objects it needs alive (they stay alive as long as the node).
    params
        Parameters of the API that made the node (the HIP layer's node parameters), or None.
    """

    def __init__(self, kind: NodeType, fn: Callable[[], Any], name: str, *, info: dict[str, Any] | None = None,
                 keep: Any = None, always_run: bool = False, inline: bool = False, params: Any = None):
        super().__init__()
        self.type = kind  # type: ignore[misc]
        self.fn, self.name, self.info, self.keep = fn, name, info, keep
        self.always_run, self.inline, self.params = always_run, inline, params

    def _queue(self, stream: Stream, hold: Any) -> None:
        stream.enqueue(self.fn, self.name, keep=(self.keep, hold), always_run=self.always_run, inline=self.inline,
                       info=self.info)

    def _take(self, other: Node) -> None:
        assert isinstance(other, WorkNode)
        self.fn, self.name, self.info, self.keep = other.fn, other.name, other.info, other.keep
        self.always_run, self.inline, self.params = other.always_run, other.inline, other.params

    def set_work(self, fn: Callable[[], Any], name: str, *, info: dict[str, Any] | None = None, keep: Any = None,
                 params: Any = None) -> None:
        """Replace the work (a node's ``...SetParams``)."""
        self.fn, self.name, self.info, self.keep, self.params = fn, name, info, keep, params

    def label(self) -> str:
        return f"{self.type.name}: {self.name}"


class ChildGraphNode(Node):
    """A node running a graph (a clone of the one given: ``hipGraphAddChildGraphNode``)."""

    type = NodeType.graph

    def __init__(self, graph: Graph):
        super().__init__()
        self.child = graph.clone()

    def _copy(self) -> Node:
        node = super()._copy()
        assert isinstance(node, ChildGraphNode)
        node.child = self.child.clone()
        return node

    def _queue(self, stream: Stream, hold: Any) -> None:
        for node in self.child._order():
            node._queue(stream, hold)

    def _take(self, other: Node) -> None:
        assert isinstance(other, ChildGraphNode)
        self.child = other.child.clone()

    def label(self) -> str:
        return f"graph: graph_{self.child.ident}"


class EventRecordNode(Node):
    """A node recording an event (``hipGraphAddEventRecordNode``)."""

    type = NodeType.event_record

    def __init__(self, event: Event):
        super().__init__()
        self.event = _event(event)

    def _queue(self, stream: Stream, hold: Any) -> None:
        self.event.record(stream)

    def _take(self, other: Node) -> None:
        assert isinstance(other, EventRecordNode)
        self.event = other.event

    def label(self) -> str:
        return f"event record: 0x{id(self.event):x}"


class EventWaitNode(Node):
    """A node making later work wait for an event's work, as recorded when the graph is launched
    (``hipGraphAddEventWaitNode``)."""

    type = NodeType.wait_event

    def __init__(self, event: Event):
        super().__init__()
        self.event = _event(event)

    def _queue(self, stream: Stream, hold: Any) -> None:
        stream.wait_event(self.event)

    def _take(self, other: Node) -> None:
        assert isinstance(other, EventWaitNode)
        self.event = other.event

    def label(self) -> str:
        return f"wait event: 0x{id(self.event):x}"


def _event(event: Any) -> Event:
    if not isinstance(event, Event):
        raise HipInvalidValueError(f"expected an Event, got {type(event).__name__}", arg="event")
    return event


# --- graphs ---------------------------------------------------------------------------------------------


class Graph:
    """A graph of device work (``hipGraph_t``), from a capture or built node by node.

    Parameters
    ----------
    device
        The device whose work it holds (the current device when None).

    Examples
    --------
    >>> s = rocmath.Stream()
    >>> s.begin_capture()
    >>> rocmath.blas.gemm(handle, a, b, c)          # handle on s: captured, not run
    >>> g = s.end_capture()
    >>> e = g.instantiate()
    >>> e.launch(s); e.launch(s); s.synchronize()   # runs twice
    """

    def __init__(self, device: int | None = None):
        self.device = _device.get_device_object(device)
        self.ident = next(_graph_ids)
        self._nodes: list[Node] = []
        self._resources: list[_Resources] = []
        self._is_clone = False  # (find_in_clone)
        self._instantiated = False
        self._destroyed = False
        self._manual: set[Node] = set()  # nodes added by hand while it was being captured into

    def __repr__(self) -> str:
        return f"<rocmath Graph {self.ident}: {len(self._nodes)} nodes on device {self.device.index}>"

    def __del__(self) -> None:
        # Nodes link each other both ways: unlinked, they (and the arguments they keep) go with the graph
        # rather than at the next cycle collection.
        for node in self.__dict__.get("_nodes", ()):
            node._graph, node._deps, node._edges = None, [], []

    def _check(self) -> None:
        if self._destroyed:
            raise HipInvalidValueError(f"graph {self.ident} was destroyed", arg="graph")

    # -- adding nodes --------------------------------------------------------------------------------

    def add_node(self, node: Node, dependencies: Iterable[Node] = ()) -> Node:
        """Add ``node`` (fresh, of no graph) after ``dependencies`` (nodes of this graph, each once)."""
        self._check()
        deps = list(dependencies)
        with _lock:
            if node.graph is not None:
                raise HipInvalidValueError("the node belongs to a graph already", arg="node")
            self._link(node, deps)
            capture = _capture_of_graph(self)
            if capture is not None:  # added by hand to a graph being captured into: no capture work
                self._manual.add(node)
        return node

    def _link(self, node: Node, deps: list[Node]) -> None:
        # The checks of HIP's ihipGraphAddNode, made before anything changes.
        seen: set[int] = set()
        for dep in deps:
            if not isinstance(dep, Node) or dep.graph is not self or id(dep) in seen:
                raise HipInvalidValueError("a dependency is no node of this graph, or is given twice",
                                           arg="pDependencies")
            seen.add(id(dep))
        self._nodes.append(node)
        node._graph = weakref.ref(self)
        for dep in deps:
            dep._edges.append(node)
            node._deps.append(dep)

    def add_empty_node(self, dependencies: Iterable[Node] = ()) -> Node:
        """An :class:`EmptyNode` after ``dependencies``."""
        return self.add_node(EmptyNode(), dependencies)

    def add_host_node(self, fn: Callable[..., Any], *args: Any, dependencies: Iterable[Node] = ()) -> Node:
        """A node calling ``fn(*args)`` on the host, in stream order, at each launch."""
        if not callable(fn):
            raise HipInvalidValueError("fn must be callable", arg="fn")
        name = f"host function {getattr(fn, '__name__', '')}".strip()
        node = WorkNode(NodeType.host, lambda: fn(*args), name, info={"cat": "callback"}, keep=args)
        return self.add_node(node, dependencies)

    def add_memcpy_node(self, dst: Any, src: Any, nbytes: int, kind: Any = _memory.MemcpyKind.Default,
                        dependencies: Iterable[Node] = ()) -> Node:
        """A node copying ``nbytes`` bytes, checked now as :func:`rocmath.memcpy_async` checks a copy.

        Host buffers are read and written when the node runs (not staged now)."""
        d, s = _memory._plan_copy(dst, src, nbytes, kind, "graph memcpy node")
        if nbytes == 0:
            raise HipInvalidValueError("a memcpy node copies at least one byte", arg="count")
        node = WorkNode(NodeType.memcpy, _memory._copy_task(d, s, int(nbytes), "graph memcpy node"),
                        "graph memcpy node", info=_memory._copy_info(d, s, int(nbytes)), keep=(d, s),
                        inline=nbytes <= _memory._INLINE_BYTES)
        return self.add_node(node, dependencies)

    def add_memset_node(self, dst: Any, value: int, nbytes: int, dependencies: Iterable[Node] = ()) -> Node:
        """A node setting ``nbytes`` bytes of device memory to ``value & 0xFF``."""
        d = _memory._plan_fill(dst, value, nbytes, "graph memset node")
        if nbytes == 0:
            raise HipInvalidValueError("a memset node sets at least one byte", arg="width")
        node = WorkNode(NodeType.memset, _memory._fill_task(d, int(value) & 0xFF, int(nbytes), "graph memset node"),
                        "graph memset node", info={"cat": "memset", "bytes": int(nbytes)}, keep=d,
                        inline=nbytes <= _memory._INLINE_BYTES)
        return self.add_node(node, dependencies)

    def add_child_graph_node(self, graph: Graph, dependencies: Iterable[Node] = ()) -> Node:
        """A node running a clone of ``graph``."""
        if not isinstance(graph, Graph):
            raise HipInvalidValueError(f"expected a Graph, got {type(graph).__name__}", arg="childGraph")
        graph._check()
        return self.add_node(ChildGraphNode(graph), dependencies)

    def add_event_record_node(self, event: Event, dependencies: Iterable[Node] = ()) -> Node:
        """A node recording ``event`` on the launch stream."""
        return self.add_node(EventRecordNode(event), dependencies)

    def add_event_wait_node(self, event: Event, dependencies: Iterable[Node] = ()) -> Node:
        """A node making the launch's later work wait for ``event``'s recorded work."""
        return self.add_node(EventWaitNode(event), dependencies)

    # -- edges ------------------------------------------------------------------------------------------

    def add_dependencies(self, from_nodes: Sequence[Node], to_nodes: Sequence[Node]) -> None:
        """Make each ``to_nodes[i]`` depend on ``from_nodes[i]`` (``hipGraphAddDependencies``): both of this
        graph, distinct, the edge new (all checked before any is added)."""
        self._check()
        pairs = list(zip(from_nodes, to_nodes, strict=True))
        with _lock:
            for a, b in pairs:
                if not (isinstance(a, Node) and isinstance(b, Node)) or a is b or a.graph is not self \
                        or b.graph is not self:
                    raise HipInvalidValueError("an edge must join two distinct nodes of this graph", arg="from")
            for a, b in pairs:
                if b in a._edges:
                    raise HipInvalidValueError(f"node {a.ident} -> node {b.ident} exists already", arg="to")
                a._edges.append(b)
                b._deps.append(a)

    def remove_dependencies(self, from_nodes: Sequence[Node], to_nodes: Sequence[Node]) -> None:
        """Remove the edges ``from_nodes[i] -> to_nodes[i]`` (``hipGraphRemoveDependencies``); an edge that
        does not exist is ``HipInvalidValueError`` (the ones before it are removed, as in HIP)."""
        self._check()
        with _lock:
            for a, b in zip(from_nodes, to_nodes, strict=True):
                if not (isinstance(a, Node) and isinstance(b, Node)) or a.graph is not self \
                        or b.graph is not self or b not in a._edges:
                    raise HipInvalidValueError("no such edge in this graph", arg="from")
                a._edges.remove(b)
                b._deps.remove(a)

    def _remove(self, node: Node) -> None:
        with _lock:
            for dep in node._deps:
                dep._edges.remove(node)
            for dependent in node._edges:
                dependent._deps.remove(node)
            self._nodes.remove(node)
            self._manual.discard(node)
            node._graph, node._deps, node._edges = None, [], []

    # -- queries -----------------------------------------------------------------------------------------

    @property
    def nodes(self) -> list[Node]:
        """The nodes in topological order (``hipGraphGetNodes``); a cycle is ``HipInvalidValueError``."""
        self._check()
        return self._order()

    @property
    def root_nodes(self) -> list[Node]:
        """The nodes without dependencies, in the order they were added."""
        self._check()
        return [n for n in self._nodes if not n._deps]

    @property
    def edges(self) -> list[tuple[Node, Node]]:
        """``(from, to)`` of every edge: by ``from`` in the order the nodes were added."""
        self._check()
        return [(a, b) for a in self._nodes for b in a._edges]

    def _order(self) -> list[Node]:
        """Kahn's order, queue first-in first-out, roots in the order they were added (HIP's)."""
        degree = {id(n): len(n._deps) for n in self._nodes}
        queue = collections.deque(n for n in self._nodes if not n._deps)
        order: list[Node] = []
        while queue:
            node = queue.popleft()
            order.append(node)
            for e in node._edges:
                degree[id(e)] -= 1
                if degree[id(e)] == 0:
                    queue.append(e)
        if len(order) != len(self._nodes):
            raise HipInvalidValueError(f"graph {self.ident} has a cycle", arg="graph")
        return order

    # -- copies and execution ------------------------------------------------------------------------------

    def clone(self) -> Graph:
        """A copy with the same nodes, parameters and edges (``hipGraphClone``): later changes to either
        do not reach the other; its nodes keep their idents (:meth:`find_in_clone`).  Graphs with memory
        nodes cannot be cloned (``HipNotSupportedError``, as in HIP)."""
        self._check()
        if any(n.type in (NodeType.mem_alloc, NodeType.mem_free) for n in self._nodes):
            raise HipNotSupportedError("graphs with memory nodes cannot be cloned", arg="originalGraph")
        return self._clone({})

    def _clone(self, mapping: dict[int, Node]) -> Graph:
        self._check()
        with _lock:
            g = Graph(self.device.index)
            g._is_clone = True
            g._resources = list(self._resources)
            ref = weakref.ref(g)
            for n in self._nodes:
                c = n._copy()
                c._graph = ref
                g._nodes.append(c)
                mapping[id(n)] = c
            for n in self._nodes:
                c = mapping[id(n)]
                c._edges = [mapping[id(e)] for e in n._edges]
                c._deps = [mapping[id(d)] for d in n._deps]
        return g

    def find_in_clone(self, original: Node) -> Node:
        """The node of this clone made from ``original`` (``hipGraphNodeFindInClone``)."""
        self._check()
        if not self._is_clone:
            raise HipInvalidValueError("the graph is not a clone", arg="clonedGraph")
        for node in self._nodes:
            if node.ident == original.ident:
                return node
        raise HipInvalidValueError(f"node {original.ident} has no clone here", arg="originalNode")

    def instantiate(self, flags: int = 0) -> GraphExec:
        """An executable graph of the graph as it is now (``hipGraphInstantiateWithFlags``)."""
        return GraphExec(self, flags)

    def destroy(self) -> None:
        """Release the graph (``hipGraphDestroy``): its executable graphs stay usable; a second destroy
        is :class:`~rocmath.errors.IllegalStateError`, as in HIP."""
        if self._destroyed:
            raise IllegalStateError(f"graph {self.ident} was destroyed already", arg="graph")
        with _lock:
            self._destroyed = True
            for node in self._nodes:
                node._graph, node._deps, node._edges = None, [], []
            self._nodes = []
            self._resources = []

    # -- debug output -----------------------------------------------------------------------------------------

    def to_dot(self, flags: int = 0) -> str:
        """The graph in Graphviz's language, laid out as HIP's ``hipGraphDebugDotPrint`` lays it out
        (one cluster per graph, child graphs after); ``flags`` other than 0 add each node's parameters."""
        self._check()
        return "digraph dot {\n" + self._dot(flags) + "}\n"

    def _dot(self, flags: int) -> str:
        lines = [f"subgraph cluster_{self.ident} {{", f'label="graph_{self.ident}"graph[style="dashed"];']
        for n in self._nodes:
            label = f"{n.ident}\\n{n.label()}"
            if flags and isinstance(n, WorkNode) and n.info:
                label += "\\n" + ", ".join(f"{k}={v}" for k, v in n.info.items() if k != "profile")
            shape = "rectangle" if n.type is NodeType.graph else "octagon" if n.type is NodeType.host else "ellipse"
            lines.append(f'"graph_{self.ident}_node_{n.ident}"[style="solid"shape="{shape}"label="{label}"];')
        for a in self._nodes:
            lines += [f'"graph_{self.ident}_node_{a.ident}" -> "graph_{self.ident}_node_{b.ident}"' for b in a._edges]
        lines.append("}")
        text = "\n".join(lines) + "\n"
        for n in self._nodes:
            if isinstance(n, ChildGraphNode):
                text += n.child._dot(flags)
        return text

    def debug_dot_print(self, path: str, flags: int = 0) -> None:
        """Write :meth:`to_dot` to the file ``path``."""
        text = self.to_dot(flags)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


class GraphExec:
    """An executable graph (``hipGraphExec_t``): a snapshot of a :class:`Graph`, launched on streams.

    Made by :meth:`Graph.instantiate`; later changes to the graph do not reach it (use
    :meth:`update` or the node setters of the HIP layer).
    """

    def __init__(self, graph: Graph, flags: int = 0):
        if not isinstance(graph, Graph):
            raise HipInvalidValueError(f"expected a Graph, got {type(graph).__name__}", arg="graph")
        graph._check()
        if graph._instantiated and any(n.type in (NodeType.mem_alloc, NodeType.mem_free) for n in graph._nodes):
            raise HipNotSupportedError("a graph with memory nodes is instantiated once", arg="graph")
        mapping: dict[int, Node] = {}
        self._graph = graph._clone(mapping)
        self._order = self._graph._order()
        self._runs: list[Any] | None = None  # the enabled nodes, small neighbours in runs (_runs), once asked
        # original node -> its copy here (what the node setters of an executable graph address).
        self._copies: dict[Node, Node] = {n: mapping[id(n)] for n in graph._nodes}
        self.flags = int(flags)
        self.device = graph.device
        self._destroyed = False
        graph._instantiated = True

    def __repr__(self) -> str:
        return f"<rocmath GraphExec of {len(self._order)} nodes on device {self.device.index}>"

    def _check(self) -> None:
        if self._destroyed:
            raise HipInvalidValueError("the executable graph was destroyed", arg="graphExec")

    @property
    def nodes(self) -> list[Node]:
        """Its nodes, in the order a launch runs them."""
        self._check()
        return list(self._order)

    def node_of(self, node: Node) -> Node:
        """This executable graph's copy of ``node``, a node of the graph it was made from (HIP's
        ``GetClonedNode``); ``HipInvalidValueError`` for any other node."""
        self._check()
        copy = self._copies.get(node) if isinstance(node, Node) else None
        if copy is None:
            raise HipInvalidValueError("the node is not one of the graph this was instantiated from", arg="node")
        return copy

    def launch(self, stream: Any = None) -> None:
        """Queue the nodes on ``stream`` (None: the current stream) in topological order, as any
        stream work: a node's failure is the stream's error, later work is skipped as usual.  Disabled
        nodes (:meth:`set_enabled`) are left out."""
        self._check()
        s = _stream.as_stream(stream)
        hold = (self._graph._resources, self)  # the memory the nodes use lives until they ran
        # Each node a task of its own for the timeline, and on a capturing stream (a node each).
        if _stream._trace._recorders or s._state.slow:
            parts: list[Any] = [node for node in self._order if node.enabled]
        else:
            if self._runs is None:
                self._runs = _runs(self._order)
            parts = self._runs
        for part in parts:
            if type(part) is list:
                _queue_run(s, part, hold)
            else:
                part._queue(s, hold)

    def upload(self, stream: Any = None) -> None:
        """``hipGraphUpload``: nothing to move to a simulated device; checks the stream."""
        self._check()
        _stream.as_stream(stream)

    def set_enabled(self, node: Node, enabled: bool) -> None:
        """Enable or disable (run or skip) this executable graph's copy of ``node``, a kernel, memcpy or
        memset node of the original graph (``hipGraphNodeSetEnabled``)."""
        copy = self.node_of(node)
        if node.type not in (NodeType.kernel, NodeType.memcpy, NodeType.memset):
            raise HipInvalidValueError(f"a {node.type.name} node cannot be disabled", arg="hNode")
        copy.enabled = bool(enabled)
        self._runs = None

    def is_enabled(self, node: Node) -> bool:
        """Whether this executable graph's copy of ``node`` runs (``hipGraphNodeGetEnabled``)."""
        copy = self.node_of(node)
        if node.type not in (NodeType.kernel, NodeType.memcpy, NodeType.memset):
            raise HipInvalidValueError(f"a {node.type.name} node has no enabled state", arg="hNode")
        return copy.enabled

    def update(self, graph: Graph) -> None:
        """Take the parameters of ``graph``'s nodes (``hipGraphExecUpdate``), which must match this
        executable graph's in topological order: count, types, devices, copy directions and dependency
        counts.  Raises :class:`~rocmath.errors.GraphExecUpdateFailureError` with ``result`` (an
        :class:`ExecUpdateResult`) and ``node`` (the offending node of ``graph``, None for a count that
        differs) otherwise; nodes before the offending one keep the parameters they took, as in HIP."""
        self._check()
        if not isinstance(graph, Graph):
            raise HipInvalidValueError(f"expected a Graph, got {type(graph).__name__}", arg="hGraph")
        new = graph._order() if not graph._destroyed else []
        if len(new) != len(self._order):
            raise _update_failure(ExecUpdateResult.topology_changed, None, "the node count differs")
        for n, old in zip(new, self._order, strict=True):
            if n.type is not old.type:
                raise _update_failure(ExecUpdateResult.node_type_changed, n, f"node {n.ident} changed type")
            if n.type not in (NodeType.host, NodeType.empty) and graph.device is not self.device:
                raise _update_failure(ExecUpdateResult.unsupported_function_change, n, "the device differs")
            if n.type is NodeType.memcpy and _copy_kind(n) != _copy_kind(old):
                raise _update_failure(ExecUpdateResult.parameters_changed, n, "the copy direction differs")
            if len(n._deps) != len(old._deps):
                raise _update_failure(ExecUpdateResult.topology_changed, n, f"node {n.ident}'s dependencies differ")
            old._take(n)
            self._runs = None
        with _lock:  # memory the new parameters' capture took over lives as long as this too
            self._graph._resources += [r for r in graph._resources if r not in self._graph._resources]

    def destroy(self) -> None:
        """Release the executable graph (``hipGraphExecDestroy``); launches already queued still run."""
        self._check()
        self._destroyed = True
        self._copies = {}
        self._order = []
        self._graph = Graph(self.device.index)


def _update_failure(result: ExecUpdateResult, node: Node | None, why: str) -> GraphExecUpdateFailureError:
    exc = GraphExecUpdateFailureError(f"{why} ({result.name})", arg="hGraph")
    exc.result, exc.node = result, node
    return exc


def _copy_kind(node: Node) -> Any:
    """A memcpy node's direction (hipMemcpyKind): its parameters' ``kind``, or the direction of its sides."""
    params = getattr(node, "params", None)
    kind = getattr(params, "kind", None)
    if kind is not None:
        return int(kind)
    info = getattr(node, "info", None) or {}
    return info.get("kind")


# --- capture ------------------------------------------------------------------------------------------------


class _ThreadCapture(threading.local):
    """A host thread's capture mode (``hip::tls.stream_capture_mode_``) and the global and thread-local
    captures it began (``hip::tls.capture_streams_``)."""

    mode: CaptureMode = CaptureMode.global_
    captures: list[_Capture] | None = None


_thread = _ThreadCapture()
_all: list[_Capture] = []  # every capture not ended (g_allCapturingStreams)
_global: list[_Capture] = []  # the global-mode ones (g_captureStreams)


def _mine() -> list[_Capture]:
    caps = _thread.captures
    if caps is None:
        caps = _thread.captures = []
    return caps


class _Capture:
    """One capture sequence: its graph, the streams in it with their current nodes, its events."""

    def __init__(self, graph: Graph, mode: CaptureMode, origin: _State):
        self.graph = graph
        self.mode = mode
        self.origin = origin
        self.ident = next(_capture_ids)
        self.owner: list[_Capture] | None = None  # the beginning thread's list of its captures (not relaxed)
        self.status = CaptureStatus.active
        self.tails: dict[_State, list[Node]] = {}  # each stream's current nodes (lastCapturedNodes)
        self.removed: list[Node] = []  # nodes update_capture_dependencies took out of a stream's set
        self.events: list[Event] = []  # events recorded in it
        self.resources = _Resources()
        graph._resources.append(self.resources)

    def invalidate(self) -> None:
        self.status = CaptureStatus.invalidated


def _capture_of_graph(graph: Graph) -> _Capture | None:
    for cap in _all:
        if cap.graph is graph:
            return cap
    return None


def _invalidate(caps: Iterable[_Capture]) -> None:
    for cap in caps:
        cap.invalidate()


def _attach(cap: _Capture, state: _State, tail: list[Node]) -> None:
    state.capture = cap
    cap.tails[state] = tail
    state.refresh_slow()
    if not state.non_blocking:  # the null stream may not synchronize with it meanwhile
        null = state.device.null_stream._state
        null.capture_blockers += 1
        null.refresh_slow()


def _detach(state: _State) -> None:
    cap = state.capture
    if cap is None:
        return
    state.capture = None
    cap.tails.pop(state, None)
    state.refresh_slow()
    if not state.non_blocking:
        null = state.device.null_stream._state
        null.capture_blockers -= 1
        null.refresh_slow()


def _end(cap: _Capture) -> Graph:
    """Take the capture off every stream, list and event; returns its graph (the capture keeps nothing)."""
    for state in list(cap.tails):
        _detach(state)
    for caps in (_all, _global, cap.owner or []):
        if cap in caps:
            caps.remove(cap)
    for event in cap.events:  # as HIP's EndCapture: no longer captured events
        if event._captured is not None and event._captured[0] is cap:
            event._captured, event._state = None, None
    _stream._capturing = len(_all)
    graph, cap.graph = cap.graph, None  # type: ignore[assignment]
    cap.events, cap.removed = [], []
    return graph  # type: ignore[return-value]


def _mode(mode: Any) -> CaptureMode:
    if isinstance(mode, str):
        names = {"global": CaptureMode.global_, "thread_local": CaptureMode.thread_local,
                 "relaxed": CaptureMode.relaxed}
        if mode not in names:
            raise HipInvalidValueError(f"{mode!r} is not a capture mode", arg="mode")
        return names[mode]
    try:
        return CaptureMode(int(mode))
    except (TypeError, ValueError):
        raise HipInvalidValueError(f"{mode!r} is not a hipStreamCaptureMode", arg="mode") from None


def begin_capture(stream: Stream, mode: Any = CaptureMode.global_, *, graph: Graph | None = None,
                  dependencies: Sequence[Node] = ()) -> None:
    """Begin capturing ``stream`` (``hipStreamBeginCapture``; with ``graph``,
    ``hipStreamBeginCaptureToGraph``: capture into an existing graph, after ``dependencies``).

    Raises
    ------
    StreamCaptureUnsupportedError
        On the null stream.
    HipInvalidValueError
        For a mode that is none.
    IllegalStateError
        When the stream captures already.
    """
    stream._check_alive()
    if stream.is_null:
        raise StreamCaptureUnsupportedError("the null stream cannot capture", arg="stream")
    m = _mode(mode)
    state = stream._state
    with _lock:
        old = state.capture
        if old is not None and old.status is CaptureStatus.active:
            raise IllegalStateError(f"{state.label} captures already", arg="stream")
        if old is not None:  # an invalidated sequence: HIP begins the new one over it
            _detach(state)
        if graph is not None:
            graph._check()
        g = graph if graph is not None else Graph(stream.device.index)
        cap = _Capture(g, m, state)
        if graph is not None:
            g._manual.update(g._nodes)  # nodes before the capture: no unjoined work
        _attach(cap, state, [])
        _all.append(cap)
        if m is not CaptureMode.relaxed:
            cap.owner = _mine()
            cap.owner.append(cap)
        if m is CaptureMode.global_:
            _global.append(cap)
        _stream._capturing = len(_all)
        if dependencies:
            update_capture_dependencies(stream, dependencies, 1)


def end_capture(stream: Stream) -> Graph:
    """End the capture ``stream`` began and return its graph (``hipStreamEndCapture``).

    Raises
    ------
    IllegalStateError
        On the null stream, or a stream not capturing.
    StreamCaptureUnmatchedError
        On a stream that joined a capture another stream began.
    StreamCaptureWrongThreadError
        For a global or thread-local capture begun by another thread.
    StreamCaptureInvalidatedError
        When an illegal operation invalidated the capture (its graph is discarded).
    StreamCaptureUnjoinedError
        When a stream the capture forked was not joined back (the capture ends, its graph discarded).
    """
    if stream.is_null:
        raise IllegalStateError("the null stream does not capture", arg="stream")
    stream._check_alive()
    state = stream._state
    with _lock:
        cap = state.capture
        if cap is None:
            raise IllegalStateError(f"{state.label} is not capturing", arg="stream")
        if cap.origin is not state:
            raise StreamCaptureUnmatchedError(f"the capture was begun on {cap.origin.label}, not on {state.label}",
                                              arg="stream")
        if cap.mode is not CaptureMode.relaxed and cap not in _mine():
            raise StreamCaptureWrongThreadError("a global or thread-local capture ends on the thread that began it",
                                                arg="stream")
        if cap.status is CaptureStatus.invalidated:
            _end(cap)
            raise StreamCaptureInvalidatedError("an illegal operation invalidated the capture", arg="stream")
        tail = set(map(id, cap.tails.get(state, [])))
        unjoined = [n for n in cap.graph._nodes
                    if not n._edges and id(n) not in tail and n not in cap.graph._manual]
        joined = not unjoined or any(n in cap.removed for n in unjoined)
        resources = cap.resources
        graph = _end(cap)
        if not joined:
            raise StreamCaptureUnjoinedError(
                f"{len(unjoined)} captured node(s) on forked streams were not joined back into {state.label} "
                f"(last: {unjoined[-1].label()})", arg="stream")
        graph._manual.clear()
        _adopt_workspaces(graph, resources)
        return graph


def capture_status(stream: Stream) -> CaptureStatus:
    """``hipStreamIsCapturing``: the stream's :class:`CaptureStatus` (``none`` for the null stream, or
    :class:`~rocmath.errors.StreamCaptureImplicitError` while a blocking stream captures, as in HIP)."""
    stream._check_alive()
    if stream.is_null:
        if _blocking_capture():
            raise StreamCaptureImplicitError("the null stream would synchronize with a capturing blocking stream",
                                             arg="stream")
        return CaptureStatus.none
    cap = stream._state.capture
    return CaptureStatus.none if cap is None else cap.status


def capture_info(stream: Stream) -> tuple[CaptureStatus, int, Graph | None, list[Node]]:
    """``hipStreamGetCaptureInfo_v2``: ``(status, capture id, graph, the nodes the stream's next captured
    work will depend on)``; id 0, no graph and no nodes unless the status is active."""
    status = capture_status(stream)
    cap = stream._state.capture
    if status is not CaptureStatus.active or cap is None:
        return status, 0, None, []
    return status, cap.ident, cap.graph, list(cap.tails.get(stream._state, []))


def update_capture_dependencies(stream: Stream, nodes: Sequence[Node], flags: int = 0) -> None:
    """``hipStreamUpdateCaptureDependencies``: add ``nodes`` to the set the stream's next captured work
    depends on (``flags`` 0, ``hipStreamAddCaptureDependencies``) or replace the set with them (1,
    ``hipStreamSetCaptureDependencies``).  The nodes must be of the capture's graph."""
    stream._check_alive()
    state = stream._state
    with _lock:
        cap = state.capture
        if cap is None:
            raise IllegalStateError(f"{state.label} is not capturing", arg="stream")
        deps = list(nodes)
        if len(cap.graph._nodes) < len(deps) or int(flags) not in (0, 1):
            raise HipInvalidValueError("more dependencies than nodes, or flags other than 0 or 1", arg="flags")
        for n in deps:
            if not isinstance(n, Node) or n.graph is not cap.graph:
                raise HipInvalidValueError("a dependency is no node of the capture's graph", arg="dependencies")
        tail = cap.tails[state]
        if int(flags) == 1:
            cap.removed += tail
            tail = []
        cap.tails[state] = tail + [n for n in deps if n not in tail]


def exchange_capture_mode(mode: Any) -> CaptureMode:
    """Set the calling thread's capture mode (``hipThreadExchangeStreamCaptureMode``); returns the old one.

    The thread's mode decides what an active capture forbids it: see :class:`CaptureMode`."""
    m = _mode(mode)
    old, _thread.mode = _thread.mode, m
    return old


# --- the hooks stream.py calls ---------------------------------------------------------------------------------


class CapturedTask(Task):
    """What :meth:`~rocmath.Stream.enqueue` returns for captured work: a :class:`~rocmath.stream.Task`
    that never runs (its node runs when the graph is launched).  Waiting for it is synchronizing the
    capturing stream: it invalidates the capture and raises
    :class:`~rocmath.errors.StreamCaptureUnsupportedError`.  A deferred free's task finishes when the
    graph gives the memory back."""

    __slots__ = ("node",)

    def __init__(self, node: Node | None, name: str, state: _State):
        super().__init__(_noop, name, [], None, state)
        self.node = node

    def wait_finished(self, timeout: float | None = None) -> bool:
        if self.finished:
            return True
        ongoing(self.state)
        raise StreamCaptureUnsupportedError(f"'{self.name}' was captured: it runs when the graph is launched",
                                            arg="stream")

    def wait(self) -> None:
        self.wait_finished()


def _in_runs(node: Node) -> bool:
    """Whether ``node`` may run in one task with its neighbours: small work (run inline on an idle
    stream) that is skipped after an error and not filed under a profiled call."""
    return (type(node) is WorkNode and node.inline and not node.always_run
            and (node.info is None or "profile" not in node.info))


def _runs(order: list[Node]) -> list[Any]:
    """The enabled nodes of ``order``, each consecutive two or more of :func:`_in_runs` as one list."""
    out: list[Any] = []
    run: list[Node] = []
    for node in order:
        if not node.enabled:
            continue
        if _in_runs(node):
            run.append(node)
            continue
        out.extend([run] if len(run) > 1 else run)
        run = []
        out.append(node)
    out.extend([run] if len(run) > 1 else run)
    return out


def _queue_run(stream: Stream, run: list[WorkNode], hold: Any) -> None:
    """Queue a run of small nodes (:func:`_in_runs`) as one task running them in order: a node queued
    on its own costs a task, two locks and a thread-local switch, several times a tiny kernel's time
    (100 replayed saxpys of 16 elements: 283 us).  A failing node stops the run, as the stream's error
    would skip the rest, and the error names it."""
    steps = [(node.fn, node.name) for node in run]

    def run_all() -> None:
        for fn, name in steps:
            try:
                fn()
            except BaseException as exc:
                exc.rocmath_op = name  # type: ignore[attr-defined]
                raise

    stream.enqueue(run_all, f"{steps[0][1]} and {len(steps) - 1} more graph nodes",
                   keep=([node.keep for node in run], hold), inline=True, info={"cat": "kernel"})


def captured_enqueue(stream: Stream, fn: Callable[[], Any], name: str, deps: Iterable[Task], keep: Any,
                     always_run: bool, inline: bool, info: dict[str, Any] | None) -> Task:
    """Stream.enqueue on a capturing stream: the work becomes a node after the stream's current nodes."""
    state = stream._state
    with _lock:
        cap = state.capture
        assert cap is not None
        if cap.status is CaptureStatus.invalidated:
            raise StreamCaptureInvalidatedError(f"'{name}': the capture on {state.label} was invalidated",
                                                arg="stream")
        outside = [t for t in deps if not isinstance(t, CapturedTask) and not t.finished]
        if outside:  # a captured node cannot wait for work outside its graph
            cap.invalidate()
            raise StreamCaptureIsolationError(f"'{name}' would depend on work outside the capture", arg="stream")
        cat = None if info is None else info.get("cat")
        if cat == "free":  # a stream-ordered free: the graph's replays still use the memory
            task = CapturedTask(None, name, state)
            cap.resources.frees.append(_then_finish(fn, task))
            return task
        node = WorkNode(_NODE_TYPES.get(cat, NodeType.kernel), fn, name, info=info, keep=keep,
                        always_run=always_run, inline=inline)
        cap.graph._link(node, cap.tails[state])
        cap.tails[state] = [node]
        return CapturedTask(node, name, state)


def _then_finish(fn: Callable[[], Any], task: Task) -> Callable[[], Any]:
    """A deferred free, run when its graph is gone: its task finishes then (whoever holds it sees it done)."""

    def run() -> None:
        try:
            fn()
        finally:
            task.finish()

    return run


def record_event(event: Event, stream: Stream) -> None:
    """Event.record on a capturing stream: the event marks the capture's current nodes of the stream."""
    state = stream._state
    with _lock:
        cap = state.capture
        assert cap is not None
        if cap.status is CaptureStatus.invalidated:
            raise StreamCaptureInvalidatedError("event record: the capture was invalidated", arg="stream")
        event._state = state
        event._captured = (cap, list(cap.tails[state]))
        cap.events.append(event)


def wait_event(stream: Stream, event: Event) -> bool:
    """Stream.wait_event under capture (HIP's hipStreamWaitEvent): a captured event joins ``stream`` to its
    capture; an event of a capturing stream recorded before its capture is
    :class:`~rocmath.errors.StreamCaptureIsolationError`.  True when handled here."""
    with _lock:
        captured = event._captured
        if captured is not None and captured[0].status is not CaptureStatus.none and captured[0] in _all:
            cap, nodes = captured
            if stream.is_null:
                raise HipInvalidHandleError("the null stream cannot join a capture", arg="stream")
            state = stream._state
            mine = state.capture
            if mine is None:
                _attach(cap, state, list(nodes))
            elif mine is not cap:
                raise StreamCaptureMergeError("the stream captures another sequence than the event's", arg="event")
            else:
                tail = cap.tails[state]
                cap.tails[state] = tail + [n for n in nodes if n not in tail]
            return True
        recorded = event._state
        if recorded is not None and recorded.capture is not None and recorded.capture.status is CaptureStatus.active:
            raise StreamCaptureIsolationError("the event was recorded on its stream before its capture began",
                                              arg="event")
        return False


def ongoing(state: _State) -> bool:
    """HIP's StreamCaptureOngoing: whether synchronizing with ``state`` is forbidden now, invalidating the
    captures that forbid it (the stream's own, or the global and this thread's ones)."""
    if state.ident == 0:
        return False
    with _lock:
        cap = state.capture
        if cap is None:
            if _thread.mode is CaptureMode.relaxed:
                return False
            for caps in (_global, _mine()):
                if caps:
                    _invalidate(caps)
                    return True
            return False
        cap.invalidate()
        return True


def check_stream_sync(state: _State, what: str) -> None:
    """Stream.synchronize / query: refused while the stream captures (or another capture forbids it)."""
    if ongoing(state):
        raise StreamCaptureUnsupportedError(f"{what} of {state.label} during a stream capture", arg="stream")


def check_event_sync(event: Event, query: bool) -> None:
    """Event.synchronize / query: refused for an event of a capturing stream, invalidating its capture."""
    state = event._state
    if state is None:
        return
    with _lock:
        cap = state.capture
        if cap is not None and cap.status is CaptureStatus.active:
            cap.invalidate()
            raise CapturedEventError(f"the event's stream ({state.label}) is capturing", arg="event")
    if not query and ongoing(state):
        raise StreamCaptureUnsupportedError("event synchronize during a stream capture", arg="event")


def check_device_sync() -> None:
    """device_synchronize: refused while any stream captures, invalidating every capture."""
    with _lock:
        if _all:
            _invalidate(_all)
            raise StreamCaptureUnsupportedError("device synchronize during a stream capture", arg="device")


def check_unsafe(op: str) -> None:
    """HIP's CHECK_STREAM_CAPTURE_SUPPORTED, for calls unsafe during a capture (frees, allocations, host
    memory registration): in a thread whose mode is thread-local, refused while it has a capture of its
    own; in global mode, also while any global capture runs; never in relaxed mode.  The captures
    concerned are invalidated."""
    with _lock:
        mode = _thread.mode
        if mode is CaptureMode.relaxed:
            return
        for caps in ((_mine(),) if mode is CaptureMode.thread_local else (_mine(), _global)):
            if caps:
                _invalidate(caps)
                raise StreamCaptureUnsupportedError(f"{op} during a stream capture", arg="stream")


def check_null_stream(state: _State, name: str, info: dict[str, Any] | None) -> None:
    """Work on the null stream while a blocking stream of its device captures: it would synchronize with
    it, so it is refused and those captures invalidated (runtime-internal deferred frees go through)."""
    if info is not None and info.get("cat") == "free":
        return
    with _lock:
        caps = [c for c in _all for s in c.tails if s.device is state.device and not s.non_blocking]
        if caps:
            _invalidate(caps)
            raise StreamCaptureImplicitError(f"'{name}' on the null stream would synchronize with a capturing "
                                             "blocking stream", arg="stream")


def forget_stream(state: _State) -> None:
    """A destroyed stream leaves its capture (HIP ends the capture it began)."""
    with _lock:
        cap = state.capture
        if cap is None:
            return
        if cap.origin is state:
            _end(cap)
        else:
            _detach(state)


def _blocking_capture() -> bool:
    with _lock:
        return any(not s.non_blocking for c in _all if c.status is CaptureStatus.active for s in c.tails)


# --- workspaces --------------------------------------------------------------------------------------------------


def _allocations(node: Node) -> list[_memory.Allocation]:
    """The allocations a captured node's work touches: a kernel launch's checked device arguments
    (``rocmath.launch._Launch``), a copy's or fill's checked sides."""
    from .launch import _Launch

    if not isinstance(node, WorkNode):
        return []
    found = []
    owner = getattr(node.fn, "__self__", None)
    if isinstance(owner, _Launch):
        found += owner.allocations()
    keep = node.keep if isinstance(node.keep, tuple) else (node.keep,)
    found += [k.span.alloc for k in keep if isinstance(k, _memory._Side) and k.span is not None]
    return found


def _adopt_workspaces(graph: Graph, resources: _Resources) -> None:
    """A handle-managed workspace the captured work uses becomes the graph's: the handle forgets it (its
    next call makes a new one), the graph frees it once no graph or executable graph of it is left.
    Without this a later call growing the workspace, or the handle's destruction, would give the memory
    back to the pool while the graph still replays work on it."""
    from .handle import _live_handles

    used = {id(a) for n in graph._nodes for a in _allocations(n)}
    if not used:
        return
    for handle in list(_live_handles):
        workspaces = handle._workspaces
        for key, (ptr, *_) in list(workspaces.items()):
            alloc = _memory.address_space.find(ptr)
            if alloc is not None and id(alloc) in used:
                del workspaces[key]
                resources.ptrs.append(ptr)
