"""``hip.hip``'s graph and stream-capture API (``hipGraph*``, ``hipStream*Capture*``, user objects), as HIP's
runtime has it (ROCm/clr hipamd/src/hip_graph.cpp, hip_graph_internal.hpp), over :mod:`rocmath.graph`.

:func:`graph_api` gives :mod:`rocmath.hip.hip` these names (it calls it at its end): hip-python 6.2's
functions with its parameter names and return tuples, the enums (``hipStreamCaptureMode``,
``hipGraphNodeType``, ``hipGraphExecUpdateResult``...), the handle types (:class:`ihipGraph`,
:class:`hipGraphNode`, :class:`hipGraphExec`, :class:`hipUserObject`) and the node parameter structs.  Every
check follows HIP's order and status (a NULL or unknown graph, node or executable graph is
``hipErrorInvalidValue``, an unknown stream ``hipErrorContextIsDestroyed``, as hip_graph.cpp reports them).

Arrays.  hip-python 6.2 generates the C array parameters of these functions as out-parameters: an
``Add*Node`` function returns ``(status, pGraphNode, pDependencies)`` and passes C the address of a single
NULL node, so with ``numDependencies > 0`` the C runtime reads a NULL dependency and the call is
``hipErrorInvalidValue``; the same holds for ``hipGraphAddDependencies`` / ``RemoveDependencies``
(``from_``, ``to``), ``hipStreamUpdateCaptureDependencies`` and ``hipStreamBeginCaptureToGraph``
(``dependencies``).  Here the hip-python call passes a NULL array, which gives the same status whenever
``numDependencies > 0`` (HIP's ``numDependencies > 0 && pDependencies == NULL`` check) and means "no
dependencies" otherwise.  To give the arrays, pass them as keywords named as hip-python names the values
(``pDependencies=[node, ...]``, ``from_=[...]``, ``to=[...]``, ``dependencies=[...]``: sequences of node
handles, of which the first ``numDependencies`` are read); the value is returned in its place of the tuple.
The query functions (``hipGraphGetNodes``, ``GetRootNodes``, ``GetEdges``, ``NodeGetDependencies``,
``NodeGetDependentNodes``) return lists of node handles (None when empty) with their counts, where hip-python
6.2's generated code passes C one node's storage and an uninitialised count.

3D memcpy nodes read a pageable host source as it was when the node was added (the copy hipMemcpy3DAsync
queues stages it); pinned and device memory is read when the node runs.

Nodes.  Host nodes call ``fn(userData)``: a Python callable gets ``userData`` as given, a ctypes function
pointer (or its address) is called as C would call it, with ``userData``'s address.  Memcpy nodes copy when
they run (host buffers are read and written then, not staged); a 3D memcpy node (``hipMemcpy3DParms``,
``HIP_MEMCPY3D``) runs the copy ``hipMemcpy3DAsync`` / ``hipDrvMemcpy3DAsync`` would queue, checked by them
(a pageable host destination, which those copies wait for, cannot be a node's: use pinned memory).  Memset
nodes fill ``height`` rows of ``width`` elements of 1, 2 or 4 bytes, ``pitch`` bytes apart.  Kernel nodes need a
``hipFunction_t``, which only modules provide and rocmath has none: adding one, or setting a kernel node's
parameters, is ``hipErrorInvalidDeviceFunction``; kernel nodes come from stream capture, and their
``hipKernelNodeParams`` read back empty (no function, 1x1x1 grid and block).  Symbols do not exist either:
the ``...FromSymbol`` / ``...ToSymbol`` functions are ``hipErrorInvalidSymbol`` after their other checks.

Graph memory nodes (``hipGraphAddMemAllocNode``): the allocation is made when the node is added (as HIP
without virtual memory does) and belongs to the graph: its address is valid for every launch until the graph
and its executable graphs are gone; a free node marks where the graph stops using it.  The graph memory
attributes count these allocations per device.

External semaphores: rocmath has none (no ``hipImportExternalSemaphore``), so a semaphore node can only
name none (``numExtSems`` 0: a node that does nothing); any semaphore named is ``hipErrorInvalidValue``.
"""

from __future__ import annotations

import ctypes
import functools
import threading
import weakref
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np

from rocmath import graph as _graph
from rocmath import memory as _memory
from rocmath.errors import (
    ContextIsDestroyedError,
    GraphExecUpdateFailureError,
    HipError,
    HipInvalidHandleError,
    HipInvalidValueError,
    HipNotSupportedError,
    IllegalStateError,
    InvalidDeviceError,
    RocmathError,
)
from rocmath.graph import (
    ChildGraphNode,
    EventRecordNode,
    EventWaitNode,
    Graph,
    GraphExec,
    Node,
    NodeType,
    WorkNode,
)
from rocmath.memory import address_space
from rocmath.stream import Event, Stream

from . import _hip_runtime2 as _rt
from ._api import PublicFunctions, binding, last_exception
from ._types import CStr, Pointer, Properties, c_enum, check_enum, pointer_value, resolve

__all__ = ["graph_api"]

_MODULE = "rocmath.hip.hip"

#: :mod:`rocmath.hip.hip` and :mod:`rocmath.hip._lib`, set by :func:`graph_api` (this module is imported at the end
#: of ``hip``, whose helpers it uses; importing either here would be circular).
_h: Any = None
_lib: Any = None

#: The functions this module adds, by name (bound by its ``*_api`` function).
_PUBLIC = _public = PublicFunctions()


# --- enums -----------------------------------------------------------------------------------------------

hipStreamCaptureMode = c_enum("hipStreamCaptureMode", [
    ("hipStreamCaptureModeGlobal", 0), ("hipStreamCaptureModeThreadLocal", 1), ("hipStreamCaptureModeRelaxed", 2),
], _MODULE, "``hipStreamCaptureMode``: which calls an active capture forbids.")

hipStreamCaptureStatus = c_enum("hipStreamCaptureStatus", [
    ("hipStreamCaptureStatusNone", 0), ("hipStreamCaptureStatusActive", 1), ("hipStreamCaptureStatusInvalidated", 2),
], _MODULE, "``hipStreamCaptureStatus``: a stream's capture state.")

hipStreamUpdateCaptureDependenciesFlags = c_enum("hipStreamUpdateCaptureDependenciesFlags", [
    ("hipStreamAddCaptureDependencies", 0), ("hipStreamSetCaptureDependencies", 1),
], _MODULE, "``hipStreamUpdateCaptureDependenciesFlags``: add to a capturing stream's dependency set or replace it.")

hipGraphNodeType = c_enum("hipGraphNodeType", [
    ("hipGraphNodeTypeKernel", 0), ("hipGraphNodeTypeMemcpy", 1), ("hipGraphNodeTypeMemset", 2),
    ("hipGraphNodeTypeHost", 3), ("hipGraphNodeTypeGraph", 4), ("hipGraphNodeTypeEmpty", 5),
    ("hipGraphNodeTypeWaitEvent", 6), ("hipGraphNodeTypeEventRecord", 7), ("hipGraphNodeTypeExtSemaphoreSignal", 8),
    ("hipGraphNodeTypeExtSemaphoreWait", 9), ("hipGraphNodeTypeMemAlloc", 10), ("hipGraphNodeTypeMemFree", 11),
    ("hipGraphNodeTypeMemcpyFromSymbol", 12), ("hipGraphNodeTypeMemcpyToSymbol", 13), ("hipGraphNodeTypeCount", 14),
], _MODULE, "``hipGraphNodeType``: what a graph node does.")

hipGraphExecUpdateResult = c_enum("hipGraphExecUpdateResult", [
    ("hipGraphExecUpdateSuccess", 0), ("hipGraphExecUpdateError", 1), ("hipGraphExecUpdateErrorTopologyChanged", 2),
    ("hipGraphExecUpdateErrorNodeTypeChanged", 3), ("hipGraphExecUpdateErrorFunctionChanged", 4),
    ("hipGraphExecUpdateErrorParametersChanged", 5), ("hipGraphExecUpdateErrorNotSupported", 6),
    ("hipGraphExecUpdateErrorUnsupportedFunctionChange", 7),
], _MODULE, "``hipGraphExecUpdateResult``: why hipGraphExecUpdate refused a graph.")

hipGraphInstantiateFlags = c_enum("hipGraphInstantiateFlags", [
    ("hipGraphInstantiateFlagAutoFreeOnLaunch", 1), ("hipGraphInstantiateFlagUpload", 2),
    ("hipGraphInstantiateFlagDeviceLaunch", 4), ("hipGraphInstantiateFlagUseNodePriority", 8),
], _MODULE, "``hipGraphInstantiateFlags``.")

hipGraphInstantiateResult = c_enum("hipGraphInstantiateResult", [
    ("hipGraphInstantiateSuccess", 0), ("hipGraphInstantiateError", 1), ("hipGraphInstantiateInvalidStructure", 2),
    ("hipGraphInstantiateNodeOperationNotSupported", 3), ("hipGraphInstantiateMultipleDevicesNotSupported", 4),
], _MODULE, "``hipGraphInstantiateResult``: what hipGraphInstantiateWithParams reports in ``result_out``.")

hipGraphDebugDotFlags = c_enum("hipGraphDebugDotFlags", [
    ("hipGraphDebugDotFlagsVerbose", 1 << 0), ("hipGraphDebugDotFlagsKernelNodeParams", 1 << 2),
    ("hipGraphDebugDotFlagsMemcpyNodeParams", 1 << 3), ("hipGraphDebugDotFlagsMemsetNodeParams", 1 << 4),
    ("hipGraphDebugDotFlagsHostNodeParams", 1 << 5), ("hipGraphDebugDotFlagsEventNodeParams", 1 << 6),
    ("hipGraphDebugDotFlagsExtSemasSignalNodeParams", 1 << 7), ("hipGraphDebugDotFlagsExtSemasWaitNodeParams", 1 << 8),
    ("hipGraphDebugDotFlagsKernelNodeAttributes", 1 << 9), ("hipGraphDebugDotFlagsHandles", 1 << 10),
], _MODULE, "``hipGraphDebugDotFlags``: what hipGraphDebugDotPrint adds to each node.")

hipGraphMemAttributeType = c_enum("hipGraphMemAttributeType", [
    ("hipGraphMemAttrUsedMemCurrent", 0), ("hipGraphMemAttrUsedMemHigh", 1), ("hipGraphMemAttrReservedMemCurrent", 2),
    ("hipGraphMemAttrReservedMemHigh", 3),
], _MODULE, "``hipGraphMemAttributeType``: the graph memory counters of a device.")

hipUserObjectFlags = c_enum("hipUserObjectFlags", [("hipUserObjectNoDestructorSync", 1)], _MODULE,
                            "``hipUserObjectFlags``.")
hipUserObjectRetainFlags = c_enum("hipUserObjectRetainFlags", [("hipGraphUserObjectMove", 1)], _MODULE,
                                  "``hipUserObjectRetainFlags``.")
hipGraphDependencyType = c_enum("hipGraphDependencyType", [
    ("hipGraphDependencyTypeDefault", 0), ("hipGraphDependencyTypeProgrammatic", 1),
], _MODULE, "``hipGraphDependencyType``.")
hipAccessProperty = c_enum("hipAccessProperty", [
    ("hipAccessPropertyNormal", 0), ("hipAccessPropertyStreaming", 1), ("hipAccessPropertyPersisting", 2),
], _MODULE, "``hipAccessProperty``.")
hipLaunchAttributeID = c_enum("hipLaunchAttributeID", [
    ("hipLaunchAttributeAccessPolicyWindow", 1), ("hipLaunchAttributeCooperative", 2),
    ("hipLaunchAttributePriority", 8),
], _MODULE, "``hipLaunchAttributeID`` (``hipKernelNodeAttrID``): kernel node attributes.")

_ENUMS = (hipStreamCaptureMode, hipStreamCaptureStatus, hipStreamUpdateCaptureDependenciesFlags, hipGraphNodeType,
          hipGraphExecUpdateResult, hipGraphInstantiateFlags, hipGraphInstantiateResult, hipGraphDebugDotFlags,
          hipGraphMemAttributeType, hipUserObjectFlags, hipUserObjectRetainFlags, hipGraphDependencyType,
          hipAccessProperty, hipLaunchAttributeID)

#: ``#define`` constants of hip_runtime_api.h these functions use.
_CONSTANTS = {"hipGraphKernelNodePortDefault": 0, "hipGraphKernelNodePortLaunchCompletion": 2,
              "hipGraphKernelNodePortProgrammatic": 1}

_INT_MAX = (1 << 31) - 1


def _invalid(message: str, arg: str | None = None) -> HipInvalidValueError:
    return HipInvalidValueError(message, arg=arg)


def _error(message: str, arg: str) -> HipInvalidValueError:
    """How a bad host pointer argument (an out-parameter) is reported: hipErrorInvalidValue."""
    return HipInvalidValueError(message, arg=arg)


# --- handles ------------------------------------------------------------------------------------------------


class _Handle(Pointer):
    """An opaque handle standing for a :mod:`rocmath.graph` object (:attr:`target`): an address in the HIP
    runtime's handle registry.  One handle per object, so the same node always comes back as the same handle."""

    _of: ClassVar[weakref.WeakKeyDictionary[Any, _Handle]]

    def __init_subclass__(cls, **kwargs: Any):
        super().__init_subclass__(**kwargs)
        cls._of = weakref.WeakKeyDictionary()

    def __init__(self, pyobj: Any = None):
        super().__init__(pyobj)
        self.target: Any = None

    @classmethod
    def wrap(cls, target: Any) -> Any:
        """The handle of ``target`` (registered on first use)."""
        with _h._handles_lock:
            handle = cls._of.get(target)
        if handle is None:
            handle = cls()
            handle.target = target
            handle._ptr = _h._register(handle)
            cls._of[target] = handle
        return handle

    @classmethod
    def drop(cls, target: Any) -> None:
        """Unregister ``target``'s handle (its address designates nothing from now on)."""
        handle = cls._of.pop(target, None)
        if handle is not None:
            with _h._handles_lock:
                if _h._handles.get(handle._ptr) is handle:
                    del _h._handles[handle._ptr]
            handle.target = None  # (a handle the program keeps no longer keeps the object)

    @classmethod
    def find(cls, obj: Any) -> Any:
        """The object a handle argument designates: None for NULL, ``False`` for an address that is no live
        handle of this class."""
        if isinstance(obj, cls) and obj.target is not None and _h._handles.get(obj._ptr) is obj:
            return obj.target
        address = pointer_value(obj)
        if address == 0:
            return None
        found = _h._handles.get(address)
        return found.target if isinstance(found, cls) and found.target is not None else False

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object, ptr: {self._ptr}>"


class ihipGraph(_Handle):
    """``hipGraph_t``: a handle to a :class:`rocmath.graph.Graph`."""


class hipGraphNode(_Handle):
    """``hipGraphNode_t``: a handle to a :class:`rocmath.graph.Node`."""


class hipGraphExec(_Handle):
    """``hipGraphExec_t``: a handle to a :class:`rocmath.graph.GraphExec`."""


class hipUserObject(_Handle):
    """``hipUserObject_t``: a handle to a user object (a reference-counted destructor)."""


class hipHostFn_t(Pointer):
    """``hipHostFn_t``: a C function pointer ``void (*)(void* userData)``."""


def _graph_of(obj: Any, arg: str = "graph") -> Graph:
    g = ihipGraph.find(obj)
    if not g or g._destroyed:
        raise _invalid(f"{arg} is no live graph", arg)
    return g  # type: ignore[no-any-return]


def _node_of(obj: Any, arg: str = "node") -> Node:
    n = hipGraphNode.find(obj)
    if not n or n.graph is None:
        raise _invalid(f"{arg} is no live graph node", arg)
    return n  # type: ignore[no-any-return]


def _exec_of(obj: Any, arg: str = "graphExec") -> GraphExec:
    e = hipGraphExec.find(obj)
    if not e or e._destroyed:
        raise _invalid(f"{arg} is no live executable graph", arg)
    return e  # type: ignore[no-any-return]


def _graph_out(graph: Graph) -> ihipGraph:
    return ihipGraph.wrap(graph)  # type: ignore[no-any-return]


def _nodes_out(nodes: Sequence[Node]) -> list[hipGraphNode] | None:
    return [hipGraphNode.wrap(n) for n in nodes] or None


def _forget_graph(graph: Graph) -> None:
    """Unregister a destroyed graph and its nodes' handles."""
    for node in graph._nodes:
        hipGraphNode.drop(node)
        if isinstance(node, ChildGraphNode):
            _forget_graph(node.child)
    ihipGraph.drop(graph)


def _size(value: Any, arg: str) -> int:
    return int(_h._c_typed(value, arg, "size_t"))


def _uint(value: Any, arg: str) -> int:
    return int(_h._c_typed(value, arg, "unsigned int"))


def _stream(obj: Any) -> Stream:
    """A stream argument where HIP checks ``hip::isValid``: an unknown or destroyed one is
    ``hipErrorContextIsDestroyed``."""
    try:
        s: Stream = _h._as_stream(obj)
        s._check_alive()
    except HipInvalidHandleError as exc:
        raise ContextIsDestroyedError(exc.message, arg="stream") from exc
    return s


def _event(obj: Any, arg: str = "event") -> tuple[Event, Any]:
    """An event argument (HIP: NULL is hipErrorInvalidValue here): the event and the handle given."""
    if pointer_value(obj) == 0:
        raise _invalid(f"{arg} is NULL", arg)
    return _h._as_event(obj), obj


def _dependencies(graph: Graph, numDependencies: Any, given: Any) -> list[Node]:
    """The dependencies a node gets: the first ``numDependencies`` of ``given`` (a sequence of node handles).
    Without ``given``, hip-python 6.2 passes the address of one NULL node: any dependency is then NULL."""
    n = _size(numDependencies, "numDependencies")
    if given is None:
        if n:
            raise _invalid("a dependency is NULL (hip-python passes no dependency array: give pDependencies=)",
                           "pDependencies")
        return []
    items = list(given)
    if n > len(items):
        raise _invalid(f"numDependencies is {n}, the array holds {len(items)}", "pDependencies")
    deps = []
    for obj in items[:n]:
        node = hipGraphNode.find(obj)
        if not node or node.graph is not graph or node in deps:
            raise _invalid("a dependency is no node of the graph, or is given twice", "pDependencies")
        deps.append(node)
    return deps


def _add(graph: Any, numDependencies: Any, pDependencies: Any, make: Callable[[], Node]) -> tuple[Any, Any]:
    """Add the node ``make()`` builds to a graph argument, in HIP's order: a NULL graph, the node's parameters
    (``make`` checks them), then the graph and the dependencies (ihipGraphAddNode)."""
    n = _size(numDependencies, "numDependencies")
    if pointer_value(graph) == 0:
        raise _invalid("graph is NULL", "graph")
    node = make()
    g = _graph_of(graph)
    g.add_node(node, _dependencies(g, n, pDependencies))
    return hipGraphNode.wrap(node), pDependencies


# --- structs --------------------------------------------------------------------------------------------------


class _Params(Properties):
    """A hip-python node parameter struct, held as Python attributes: members by position or keyword (hip-python's
    errors for unknown or repeated ones), ``PROPERTIES()``, indexing by position.  Members hip-python 6.2 leaves
    out of its wrappers (function pointers, handles, anonymous unions) are members here too."""

    _fields: ClassVar[tuple[tuple[str, Callable[[], Any]], ...]] = ()

    def __init__(self, *args: Any, **kwargs: Any):
        for name, default in self._fields:
            object.__setattr__(self, name, default())
        _h._set_properties(self, tuple(self.PROPERTIES()), args, kwargs)

    @classmethod
    def PROPERTIES(cls) -> list[str]:
        """The member names."""
        return [name for name, _ in cls._fields]

    @classmethod
    def fromObj(cls, pyobj: Any) -> Any:
        """``pyobj`` when it is one (these structs live in Python, not at an address)."""
        if isinstance(pyobj, cls):
            return pyobj
        raise TypeError(f"expected a {cls.__name__}, got {type(pyobj).__name__}")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} " + " ".join(f"{n}={getattr(self, n)!r}" for n in self.PROPERTIES()) + ">"


def _dim3() -> Any:
    return _h.dim3()


class hipHostNodeParams(_Params):
    """``hipHostNodeParams``: ``fn`` (a Python callable, a ctypes function pointer or its address) and
    ``userData``."""

    _fields = (("fn", lambda: None), ("userData", lambda: None))


class hipKernelNodeParams(_Params):
    """``hipKernelNodeParams``: ``blockDim``, ``extra``, ``func`` (a ``hipFunction_t``), ``gridDim``,
    ``kernelParams``, ``sharedMemBytes``."""

    _fields = (("blockDim", _dim3), ("extra", lambda: None), ("func", lambda: None), ("gridDim", _dim3),
               ("kernelParams", lambda: None), ("sharedMemBytes", lambda: 0))


class hipMemsetParams(_Params):
    """``hipMemsetParams``: set ``height`` rows of ``width`` elements of ``elementSize`` bytes (1, 2 or 4) at
    ``dst``, ``pitch`` bytes apart, to ``value``."""

    _fields = (("dst", lambda: None), ("elementSize", lambda: 0), ("height", lambda: 0), ("pitch", lambda: 0),
               ("value", lambda: 0), ("width", lambda: 0))


class HIP_MEMSET_NODE_PARAMS(_Params):
    """``HIP_MEMSET_NODE_PARAMS``: the driver API's :class:`hipMemsetParams`."""

    _fields = (("dst", lambda: None), ("pitch", lambda: 0), ("value", lambda: 0), ("elementSize", lambda: 0),
               ("width", lambda: 0), ("height", lambda: 0))


class hipAccessPolicyWindow(_Params):
    """``hipAccessPolicyWindow``: a kernel node's L2 access policy (kept; the simulated device has no L2 policy)."""

    _fields = (("base_ptr", lambda: None), ("hitProp", lambda: hipAccessProperty.hipAccessPropertyNormal),
               ("hitRatio", lambda: 0.0), ("missProp", lambda: hipAccessProperty.hipAccessPropertyNormal),
               ("num_bytes", lambda: 0))


class hipLaunchAttributeValue(_Params):
    """``hipLaunchAttributeValue`` (``hipKernelNodeAttrValue``): ``accessPolicyWindow``, ``cooperative``,
    ``priority``."""

    _fields = (("accessPolicyWindow", hipAccessPolicyWindow), ("cooperative", lambda: 0), ("priority", lambda: 0))


class hipGraphInstantiateParams(_Params):
    """``hipGraphInstantiateParams``: ``flags`` and ``uploadStream`` in, ``errNode_out`` and ``result_out`` out."""

    _fields = (("errNode_out", lambda: None), ("flags", lambda: 0),
               ("result_out", lambda: hipGraphInstantiateResult.hipGraphInstantiateSuccess),
               ("uploadStream", lambda: None))


class hipMemcpyNodeParams(_Params):
    """``hipMemcpyNodeParams``: ``flags`` and ``reserved`` (zero), ``copyParams`` (a ``hipMemcpy3DParms``)."""

    _fields = (("flags", lambda: 0), ("reserved", lambda: [0, 0, 0]), ("copyParams", lambda: _h.hipMemcpy3DParms()))


class hipChildGraphNodeParams(_Params):
    """``hipChildGraphNodeParams``: ``graph``."""

    _fields = (("graph", lambda: None),)


class hipEventWaitNodeParams(_Params):
    """``hipEventWaitNodeParams``: ``event``."""

    _fields = (("event", lambda: None),)


class hipEventRecordNodeParams(_Params):
    """``hipEventRecordNodeParams``: ``event``."""

    _fields = (("event", lambda: None),)


class hipMemFreeNodeParams(_Params):
    """``hipMemFreeNodeParams``: ``dptr``."""

    _fields = (("dptr", lambda: None),)


class hipMemAllocNodeParams(_Params):
    """``hipMemAllocNodeParams``: ``poolProps`` (a ``hipMemPoolProps``), ``accessDescs``, ``accessDescCount``,
    ``bytesize`` in; ``dptr`` out."""

    _fields = (("poolProps", lambda: _h.hipMemPoolProps()), ("accessDescs", lambda: None),
               ("accessDescCount", lambda: 0), ("bytesize", lambda: 0), ("dptr", lambda: None))


class hipExternalSemaphoreSignalNodeParams(_Params):
    """``hipExternalSemaphoreSignalNodeParams``: ``extSemArray``, ``paramsArray``, ``numExtSems``."""

    _fields = (("extSemArray", lambda: None), ("paramsArray", lambda: None), ("numExtSems", lambda: 0))


class hipExternalSemaphoreWaitNodeParams(_Params):
    """``hipExternalSemaphoreWaitNodeParams``: ``extSemArray``, ``paramsArray``, ``numExtSems``."""

    _fields = (("extSemArray", lambda: None), ("paramsArray", lambda: None), ("numExtSems", lambda: 0))


class hipGraphNodeParams(_Params):
    """``hipGraphNodeParams``: ``type`` (a :class:`hipGraphNodeType`) and the member of its anonymous union
    that type reads (``kernel``, ``memcpy``, ``memset``, ``host``, ``graph``, ``eventWait``, ``eventRecord``,
    ``extSemSignal``, ``extSemWait``, ``alloc``, ``free``)."""

    _fields = (("type", lambda: hipGraphNodeType.hipGraphNodeTypeKernel), ("reserved0", lambda: [0, 0, 0]),
               ("kernel", hipKernelNodeParams), ("memcpy", hipMemcpyNodeParams), ("memset", hipMemsetParams),
               ("host", hipHostNodeParams), ("graph", hipChildGraphNodeParams), ("eventWait", hipEventWaitNodeParams),
               ("eventRecord", hipEventRecordNodeParams), ("extSemSignal", hipExternalSemaphoreSignalNodeParams),
               ("extSemWait", hipExternalSemaphoreWaitNodeParams), ("alloc", hipMemAllocNodeParams),
               ("free", hipMemFreeNodeParams), ("reserved2", lambda: 0))


class hipGraphNodeParams_union_0(_Params):
    """The anonymous union of ``hipGraphNodeParams`` (whose members :class:`hipGraphNodeParams` has directly)."""

    _fields = (("reserved1", lambda: [0] * 29),
               *(f for f in hipGraphNodeParams._fields if f[0] not in ("type", "reserved0", "reserved2")))


class hipGraphEdgeData(_Params):
    """``hipGraphEdgeData``: ``from_port``, ``reserved``, ``to_port``, ``type``."""

    _fields = (("from_port", lambda: 0), ("reserved", lambda: [0] * 5), ("to_port", lambda: 0), ("type", lambda: 0))


_STRUCTS = (hipHostNodeParams, hipKernelNodeParams, hipMemsetParams, HIP_MEMSET_NODE_PARAMS, hipAccessPolicyWindow,
            hipLaunchAttributeValue, hipGraphInstantiateParams, hipMemcpyNodeParams, hipChildGraphNodeParams,
            hipEventWaitNodeParams, hipEventRecordNodeParams, hipMemFreeNodeParams, hipMemAllocNodeParams,
            hipExternalSemaphoreSignalNodeParams, hipExternalSemaphoreWaitNodeParams, hipGraphNodeParams,
            hipGraphNodeParams_union_0, hipGraphEdgeData)


def _struct(obj: Any, cls: type[_Params], arg: str) -> Any:
    """A struct argument: None for NULL (an address is no struct here: TypeError, as a wrong type)."""
    if obj is None or (not isinstance(obj, _Params) and pointer_value(obj) == 0):
        return None
    return cls.fromObj(obj)


# --- stream capture -------------------------------------------------------------------------------------------


def _mode(mode: Any) -> Any:
    check_enum(mode, hipStreamCaptureMode, "mode")
    return _graph.CaptureMode(int(mode))


@_public()
def hipStreamBeginCapture(stream: Any, mode: Any) -> None:
    """Begin capturing a stream's work into a new graph (the null stream: hipErrorStreamCaptureUnsupported; a
    capturing one: hipErrorIllegalState)."""
    m = _mode(mode)
    _graph.begin_capture(_stream(stream), m)


@_public(1)
def hipStreamBeginCaptureToGraph(stream: Any, graph: Any, dependencyData: Any, numDependencies: int, mode: Any, *,
                                 dependencies: Any = None) -> Any:
    """Begin capturing into an existing graph, after ``dependencies`` (keyword: see the module docstring); HIP
    supports no ``dependencyData`` (hipErrorNotSupported)."""
    m = _mode(mode)
    n = _size(numDependencies, "numDependencies")
    if pointer_value(dependencyData) != 0:
        raise HipNotSupportedError("dependencyData is not supported", arg="dependencyData")
    if pointer_value(graph) == 0:
        raise _invalid("graph is NULL", "graph")
    if dependencies is not None and n == 0:
        raise _invalid("dependencies given with numDependencies 0", "numDependencies")
    g = _graph_of(graph)
    deps = _dependencies(g, n, dependencies) if dependencies is not None else []
    if dependencies is None and n:
        raise _invalid("numDependencies without dependencies", "dependencies")
    _graph.begin_capture(_stream(stream), m, graph=g, dependencies=deps)
    return dependencies


@_public(1)
def hipStreamEndCapture(stream: Any) -> Any:
    """End the capture the stream began; returns its graph (statuses: see :func:`rocmath.graph.end_capture`)."""
    return _graph_out(_graph.end_capture(_capture_stream(stream)))


def _capture_stream(stream: Any) -> Stream:
    """A stream argument of the capture queries: NULL and hipStreamLegacy are the null stream (checked by the
    runtime before the stream's validity, as HIP checks them)."""
    if stream is None or (not isinstance(stream, Stream) and pointer_value(stream) in (0, _h.hipStreamLegacy)):
        return _h._as_stream(None)  # type: ignore[no-any-return]
    return _stream(stream)


def _status(stream: Stream) -> Any:
    return hipStreamCaptureStatus(int(_graph.capture_status(stream)))


@_public(1)
def hipStreamIsCapturing(stream: Any) -> Any:
    """The stream's :class:`hipStreamCaptureStatus` (the null stream while a blocking stream captures:
    hipErrorStreamCaptureImplicit)."""
    return _status(_capture_stream(stream))


@_public(2)
def hipStreamGetCaptureInfo(stream: Any) -> tuple[Any, int]:
    """``(status, capture id)``: the id is 0 unless the stream captures."""
    status, ident, _, _ = _graph.capture_info(_capture_stream(stream))
    return hipStreamCaptureStatus(int(status)), ident


#: Per stream state: the array of node addresses hipStreamGetCaptureInfo_v2 last handed out (valid, as in
#: HIP, until the stream's capture changes).
_dependency_arrays: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


@_public(4)
def hipStreamGetCaptureInfo_v2(stream: Any, dependencies_out: Any) -> tuple[Any, int, Any, int]:
    """``(status, id, graph, numDependencies)`` of a stream; while it captures, ``dependencies_out`` receives
    the nodes its next captured work will depend on: a list is filled with their handles, a pointer
    (``ctypes.c_void_p``...) receives the address of an array of their addresses (None: not asked for)."""
    s = _capture_stream(stream)
    status, ident, graph, deps = _graph.capture_info(s)
    if status is not _graph.CaptureStatus.active:
        return hipStreamCaptureStatus(int(status)), 0, None, 0
    handles = [hipGraphNode.wrap(n) for n in deps]
    if isinstance(dependencies_out, list):
        dependencies_out[:] = handles
    elif isinstance(dependencies_out, ctypes._SimpleCData) or pointer_value(dependencies_out) != 0:
        array = (ctypes.c_uint64 * max(len(handles), 1))(*[h._ptr for h in handles])
        _dependency_arrays[s._state] = array
        _lib.write_host(dependencies_out, ctypes.addressof(array), np.uint64, "dependencies_out", _error)
    return hipStreamCaptureStatus(int(status)), ident, _graph_out(graph) if graph is not None else None, len(deps)


@_public(1)
def hipStreamUpdateCaptureDependencies(stream: Any, numDependencies: int, flags: int, *,
                                       dependencies: Any = None) -> Any:
    """Add to (flags ``hipStreamAddCaptureDependencies``) or replace (``hipStreamSetCaptureDependencies``) the
    nodes a capturing stream's next work depends on (``dependencies``: keyword, see the module docstring)."""
    n = _size(numDependencies, "numDependencies")
    f = _uint(flags, "flags")
    s = _stream(stream)
    cap = s._state.capture
    if cap is None:
        raise IllegalStateError("the stream is not capturing", arg="stream")
    if len(cap.graph._nodes) < n or f not in (0, 1):
        raise _invalid("more dependencies than nodes, or flags other than 0 or 1", "flags")
    deps = _dependencies(cap.graph, n, dependencies)
    _graph.update_capture_dependencies(s, deps, f)
    return dependencies


@_public()
def hipThreadExchangeStreamCaptureMode(mode: Any) -> None:
    """Swap the calling thread's capture mode with ``*mode`` (a pointer to a ``hipStreamCaptureMode`` value: a
    ``ctypes.c_int``, a one-element int32 array...)."""
    value = _lib.read_host(mode, np.int32, 1, "mode", _error)
    if value is None or not 0 <= int(value[0]) <= 2:
        raise _invalid("mode is NULL or not a hipStreamCaptureMode", "mode")
    old = _graph.exchange_capture_mode(int(value[0]))
    _lib.write_host(mode, int(old), np.int32, "mode", _error)


# --- graphs ---------------------------------------------------------------------------------------------------


@_public(1)
def hipGraphCreate(flags: int) -> ihipGraph:
    """A new empty graph on the current device (``flags`` must be 0)."""
    if _uint(flags, "flags") != 0:
        raise _invalid("flags must be 0", "flags")
    return _graph_out(Graph())


@_public()
def hipGraphDestroy(graph: Any) -> None:
    """Destroy a graph and its nodes (its executable graphs stay); a destroyed or unknown graph is
    hipErrorIllegalState, as in HIP."""
    if pointer_value(graph) == 0:
        raise _invalid("graph is NULL", "graph")
    g = ihipGraph.find(graph)
    if not g or g._destroyed:
        raise IllegalStateError("the graph was destroyed", arg="graph")
    _release_user_objects(g)
    _forget_graph(g)
    g.destroy()


@_public(1)
def hipGraphClone(originalGraph: Any) -> ihipGraph:
    """A copy of a graph (graphs with memory nodes: hipErrorNotSupported)."""
    g = _graph_of(originalGraph, "originalGraph")
    clone = g.clone()
    _copy_user_objects(g, clone)
    return _graph_out(clone)


@_public(1)
def hipGraphNodeFindInClone(originalNode: Any, clonedGraph: Any) -> hipGraphNode:
    """The node of a clone made from ``originalNode``."""
    if pointer_value(originalNode) == 0 or pointer_value(clonedGraph) == 0:
        raise _invalid("originalNode and clonedGraph must not be NULL", "originalNode")
    original = hipGraphNode.find(originalNode)
    clone = ihipGraph.find(clonedGraph)
    if not clone or not original:
        raise _invalid("no such node or graph", "originalNode")
    return hipGraphNode.wrap(clone.find_in_clone(original))  # type: ignore[no-any-return]


@_public(2)
def hipGraphAddDependencies(graph: Any, numDependencies: int, *, from_: Any = None, to: Any = None) -> tuple[Any, Any]:
    """Add the edges ``from_[i] -> to[i]`` (keywords: see the module docstring); all checked first."""
    n = _size(numDependencies, "numDependencies")
    if pointer_value(graph) == 0:
        raise _invalid("graph is NULL", "graph")
    if n == 0:
        return from_, to
    g = _graph_of(graph)
    a, b = _edge_ends(g, n, from_, to)
    g.add_dependencies(a, b)
    return from_, to


def _edge_ends(g: Graph, n: int, from_: Any, to: Any) -> tuple[list[Node], list[Node]]:
    ends = []
    for given, arg in ((from_, "from"), (to, "to")):
        items = list(given) if given is not None else [None]  # (hip-python's one NULL node)
        if n > len(items) and given is not None:
            raise _invalid(f"numDependencies is {n}, {arg} holds {len(items)}", arg)
        nodes = []
        for obj in items[:n]:
            node = hipGraphNode.find(obj)
            if not node or node.graph is not g:
                raise _invalid(f"an entry of {arg} is no node of the graph", arg)
            nodes.append(node)
        ends.append(nodes)
    return ends[0], ends[1]


@_public(2)
def hipGraphRemoveDependencies(graph: Any, numDependencies: int, *, from_: Any = None,
                               to: Any = None) -> tuple[Any, Any]:
    """Remove the edges ``from_[i] -> to[i]``; a missing one is hipErrorInvalidValue (the earlier ones are removed,
    as in HIP)."""
    n = _size(numDependencies, "numDependencies")
    g = _graph_of(graph)
    if n:
        a, b = _edge_ends(g, n, from_, to)
        g.remove_dependencies(a, b)
    return from_, to


@_public(3)
def hipGraphGetEdges(graph: Any) -> tuple[Any, Any, int]:
    """``(from_, to, numEdges)``: the edges' two ends as lists of node handles (None when there is none)."""
    edges = _graph_of(graph).edges
    return _nodes_out([a for a, _ in edges]), _nodes_out([b for _, b in edges]), len(edges)


@_public(2)
def hipGraphGetNodes(graph: Any) -> tuple[Any, int]:
    """``(nodes, numNodes)``: the nodes in topological order (a cycle: hipErrorInvalidValue)."""
    nodes = _graph_of(graph).nodes
    return _nodes_out(nodes), len(nodes)


@_public(2)
def hipGraphGetRootNodes(graph: Any) -> tuple[Any, int]:
    """``(pRootNodes, pNumRootNodes)``: the nodes without dependencies."""
    nodes = _graph_of(graph).root_nodes
    return _nodes_out(nodes), len(nodes)


@_public(2)
def hipGraphNodeGetDependencies(node: Any) -> tuple[Any, int]:
    """``(pDependencies, pNumDependencies)`` of a node."""
    deps = _node_of(node).dependencies
    return _nodes_out(deps), len(deps)


@_public(2)
def hipGraphNodeGetDependentNodes(node: Any) -> tuple[Any, int]:
    """``(pDependentNodes, pNumDependentNodes)`` of a node."""
    deps = _node_of(node).dependents
    return _nodes_out(deps), len(deps)


@_public(1)
def hipGraphNodeGetType(node: Any) -> Any:
    """The node's :class:`hipGraphNodeType`."""
    return hipGraphNodeType(int(_node_of(node).type))


@_public()
def hipGraphDestroyNode(node: Any) -> None:
    """Remove a node and its edges (memory nodes: hipErrorNotSupported)."""
    n = _node_of(node)
    n.destroy()
    hipGraphNode.drop(n)


@_public()
def hipGraphDebugDotPrint(graph: Any, path: Any, flags: int) -> None:
    """Write the graph in Graphviz's language to the file ``path`` (one it cannot open:
    hipErrorOperatingSystem)."""
    f = _uint(flags, "flags")
    if pointer_value(graph) == 0 or path is None:
        raise _invalid("graph and path must not be NULL", "graph" if path is not None else "path")
    g = _graph_of(graph)
    name = bytes(path).decode() if isinstance(path, (bytes, bytearray, CStr)) else str(path)
    try:
        g.debug_dot_print(name, f)
    except OSError as exc:
        raise _rt.StatusError("hipErrorOperatingSystem", f"cannot write {name}: {exc.strerror}", arg="path") from None


# --- nodes: empty, host, child graph, events ----------------------------------------------------------------


@_public(2)
def hipGraphAddEmptyNode(graph: Any, numDependencies: int, *, pDependencies: Any = None) -> tuple[Any, Any]:
    """Add a node that does nothing."""
    return _add(graph, numDependencies, pDependencies, _graph.EmptyNode)


def _host_call(params: hipHostNodeParams) -> tuple[Callable[[], Any], str]:
    """The call a host node makes: ``fn(userData)``, in Python or as C calls a ``hipHostFn_t``."""
    fn, data = params.fn, params.userData
    name = getattr(fn, "__name__", "host function")
    if callable(fn) and not isinstance(fn, ctypes._CFuncPtr):
        return (lambda: fn(data)), name
    cfn = fn if isinstance(fn, ctypes._CFuncPtr) else ctypes.CFUNCTYPE(None, ctypes.c_void_p)(pointer_value(fn))
    address = pointer_value(data)
    return (lambda: cfn(ctypes.c_void_p(address or None))), name


def _host_node_params(p: Any) -> hipHostNodeParams:
    params = _struct(p, hipHostNodeParams, "pNodeParams")
    if params is None or params.fn is None or (not callable(params.fn) and pointer_value(params.fn) == 0):
        raise _invalid("pNodeParams or its fn is NULL", "pNodeParams")
    return params  # type: ignore[no-any-return]


def _host_node(params: hipHostNodeParams) -> WorkNode:
    call, name = _host_call(params)
    keep = (params.fn, params.userData)
    return WorkNode(NodeType.host, call, f"host function {name}", info={"cat": "callback"}, keep=keep,
                    params=hipHostNodeParams(params.fn, params.userData))


@_public(2)
def hipGraphAddHostNode(graph: Any, numDependencies: int, pNodeParams: Any, *,
                        pDependencies: Any = None) -> tuple[Any, Any]:
    """Add a node calling ``pNodeParams.fn(pNodeParams.userData)`` on the host."""
    return _add(graph, numDependencies, pDependencies, lambda: _host_node(_host_node_params(pNodeParams)))


def _typed(node: Node, kind: NodeType, arg: str = "node") -> Any:
    if node.type is not kind:
        raise _invalid(f"a {node.type.name} node, not a {kind.name} node", arg)
    return node


@_public()
def hipGraphHostNodeGetParams(node: Any, pNodeParams: Any) -> None:
    """Fill ``pNodeParams`` with a host node's ``fn`` and ``userData``."""
    n = _typed(_node_of(node), NodeType.host)
    params = _struct(pNodeParams, hipHostNodeParams, "pNodeParams")
    if params is None:
        raise _invalid("pNodeParams is NULL", "pNodeParams")
    params.fn, params.userData = n.params.fn, n.params.userData


def _set_host(target: Node, params: hipHostNodeParams) -> None:
    _typed(target, NodeType.host)
    made = _host_node(params)
    target.set_work(made.fn, made.name, info=made.info, keep=made.keep, params=made.params)  # type: ignore[attr-defined]


@_public()
def hipGraphHostNodeSetParams(node: Any, pNodeParams: Any) -> None:
    """Give a host node a new function and data."""
    params = _host_node_params(pNodeParams)
    _set_host(_node_of(node), params)


@_public()
def hipGraphExecHostNodeSetParams(hGraphExec: Any, node: Any, pNodeParams: Any) -> None:
    """Give an executable graph's copy of a host node a new function and data."""
    e = _exec_of(hGraphExec, "hGraphExec")
    params = _host_node_params(pNodeParams)
    _set_host(e.node_of(_node_of(node)), params)


@_public(2)
def hipGraphAddChildGraphNode(graph: Any, numDependencies: int, childGraph: Any, *,
                              pDependencies: Any = None) -> tuple[Any, Any]:
    """Add a node running a clone of ``childGraph``."""
    return _add(graph, numDependencies, pDependencies, lambda: ChildGraphNode(_graph_of(childGraph, "childGraph")))


@_public(1)
def hipGraphChildGraphNodeGetGraph(node: Any) -> ihipGraph:
    """The graph a child graph node runs (its own clone: changes to it change the node)."""
    n = _node_of(node)
    if not isinstance(n, ChildGraphNode):
        raise _invalid("not a child graph node", "node")
    return _graph_out(n.child)


@_public()
def hipGraphExecChildGraphNodeSetParams(hGraphExec: Any, node: Any, childGraph: Any) -> None:
    """Make an executable graph's copy of a child graph node run (a clone of) ``childGraph``, whose nodes must
    match the node's graph's in topological order and type (hipErrorUnknown otherwise, as HIP reports)."""
    e = _exec_of(hGraphExec, "hGraphExec")
    n = _node_of(node)
    child = _graph_of(childGraph, "childGraph")
    if not isinstance(n, ChildGraphNode):
        raise _invalid("not a child graph node", "node")
    if child is n.graph:
        raise _rt.StatusError("hipErrorUnknown", "a graph cannot be its own child", arg="childGraph")
    old, new = n.child._order(), child._order()
    if len(old) != len(new) or any(a.type is not b.type for a, b in zip(old, new, strict=True)):
        raise _rt.StatusError("hipErrorUnknown", "the child graph's topology differs", arg="childGraph")
    copy = e.node_of(n)
    assert isinstance(copy, ChildGraphNode)
    copy.child = child.clone()


def _event_node(kind: type[Node], event: Any) -> Node:
    ev, handle = _event(event)
    node = kind(ev)  # type: ignore[call-arg]
    node.handle = handle  # type: ignore[attr-defined]  # (what the GetEvent functions give back)
    return node


@_public(2)
def hipGraphAddEventRecordNode(graph: Any, numDependencies: int, event: Any, *,
                               pDependencies: Any = None) -> tuple[Any, Any]:
    """Add a node recording ``event`` on the launch stream."""
    return _add(graph, numDependencies, pDependencies, lambda: _event_node(EventRecordNode, event))


@_public(2)
def hipGraphAddEventWaitNode(graph: Any, numDependencies: int, event: Any, *,
                             pDependencies: Any = None) -> tuple[Any, Any]:
    """Add a node making the launch's later work wait for ``event``'s recorded work."""
    return _add(graph, numDependencies, pDependencies, lambda: _event_node(EventWaitNode, event))


def _get_event(node: Any, kind: NodeType) -> Any:
    n = _typed(_node_of(node), kind)
    return n.handle


def _set_event(target: Node, kind: NodeType, event: Any) -> None:
    _typed(target, kind, "hNode")
    target.event, target.handle = _event(event)  # type: ignore[attr-defined]


@_public(1)
def hipGraphEventRecordNodeGetEvent(node: Any) -> Any:
    """The event an event record node records."""
    return _get_event(node, NodeType.event_record)


@_public()
def hipGraphEventRecordNodeSetEvent(node: Any, event: Any) -> None:
    """Make an event record node record another event."""
    n = _node_of(node)
    if pointer_value(event) == 0:
        raise _invalid("event is NULL", "event")
    _set_event(n, NodeType.event_record, event)


@_public(1)
def hipGraphEventWaitNodeGetEvent(node: Any) -> Any:
    """The event an event wait node waits for."""
    return _get_event(node, NodeType.wait_event)


@_public()
def hipGraphEventWaitNodeSetEvent(node: Any, event: Any) -> None:
    """Make an event wait node wait for another event."""
    n = _node_of(node)
    if pointer_value(event) == 0:
        raise _invalid("event is NULL", "event")
    _set_event(n, NodeType.wait_event, event)


def _exec_event(hGraphExec: Any, hNode: Any, event: Any, kind: NodeType) -> None:
    # HIP checks the handles for NULL and the node's type, not the node's validity, before the clone lookup.
    if pointer_value(hGraphExec) == 0 or pointer_value(hNode) == 0 or pointer_value(event) == 0:
        raise _invalid("hGraphExec, hNode and event must not be NULL", "hNode")
    n = _typed(_node_of(hNode, "hNode"), kind, "hNode")
    e = _exec_of(hGraphExec, "hGraphExec")
    _set_event(e.node_of(n), kind, event)


@_public()
def hipGraphExecEventRecordNodeSetEvent(hGraphExec: Any, hNode: Any, event: Any) -> None:
    """Make an executable graph's copy of an event record node record another event."""
    _exec_event(hGraphExec, hNode, event, NodeType.event_record)


@_public()
def hipGraphExecEventWaitNodeSetEvent(hGraphExec: Any, hNode: Any, event: Any) -> None:
    """Make an executable graph's copy of an event wait node wait for another event."""
    _exec_event(hGraphExec, hNode, event, NodeType.wait_event)


# --- nodes: copies and fills ---------------------------------------------------------------------------------


class _Copy1D:
    """A 1D memcpy node's parameters (hipGraphAddMemcpyNode1D)."""

    def __init__(self, dst: Any, src: Any, count: int, kind: Any):
        self.dst, self.src, self.count, self.kind = dst, src, count, kind


def _copy1d_node(dst: Any, src: Any, count: int, kind: Any) -> WorkNode:
    """A 1D memcpy node's work, checked as HIP's GraphMemcpyNode1D::ValidateParams checks it (NULL sides, a count
    past either allocation, a kind disagreeing with a host side: hipErrorInvalidValue)."""
    if count == 0:
        raise _invalid("count is 0", "count")
    if pointer_value(dst) == 0 or pointer_value(src) == 0:
        raise _invalid("dst and src must not be NULL", "dst" if pointer_value(dst) == 0 else "src")
    if int(kind) > 4 and int(kind) != 1024:
        raise _h.InvalidMemcpyDirectionError(f"{kind!r} is no copy direction", arg="kind")
    sides = {}
    for obj, arg in ((src, "src"), (dst, "dst")):
        r = resolve(obj)
        alloc = address_space.find(r.address) if r.device else None
        if alloc is not None and alloc.live and not alloc.pooled:
            if count > alloc.nbytes - (r.address - alloc.ptr):
                raise _invalid(f"{count} bytes run past the allocation {arg} points into", arg)
            sides[arg] = True
        else:
            sides[arg] = False
    k = _h.hipMemcpyKind
    if not sides["src"] and sides["dst"] and kind not in (k.hipMemcpyHostToDevice, k.hipMemcpyDefault):
        raise _invalid(f"a host source and a device destination are no {kind.name}", "kind")
    if sides["src"] and not sides["dst"] and kind not in (k.hipMemcpyDeviceToHost, k.hipMemcpyDefault):
        raise _invalid(f"a device source and a host destination are no {kind.name}", "kind")
    if not sides["src"] and not sides["dst"] and kind not in (k.hipMemcpyHostToHost, k.hipMemcpyDefault):
        raise _invalid("two host sides need hipMemcpyHostToHost or hipMemcpyDefault", "kind")
    op = "graph memcpy node"
    d = _memory._side(_h._copy_side(dst, count, "dst"), count, op, "dst", writable=True)
    s = _memory._side(_h._copy_side(src, count, "src"), count, op, "src", writable=False)
    return WorkNode(NodeType.memcpy, _memory._copy_task(d, s, count, op), op, info=_memory._copy_info(d, s, count),
                    keep=(d, s), inline=count <= _memory._INLINE_BYTES, params=_Copy1D(dst, src, count, kind))


@_public(2)
def hipGraphAddMemcpyNode1D(graph: Any, numDependencies: int, dst: Any, src: Any, count: int, kind: Any, *,
                            pDependencies: Any = None) -> tuple[Any, Any]:
    """Add a node copying ``count`` bytes from ``src`` to ``dst`` (read and written when it runs)."""
    n = _size(count, "count")
    check_enum(kind, _h.hipMemcpyKind, "kind")
    return _add(graph, numDependencies, pDependencies, lambda: _copy1d_node(dst, src, n, kind))


def _set_copy1d(target: Node, dst: Any, src: Any, count: int, kind: Any) -> None:
    if target.type is not NodeType.memcpy or not isinstance(target.params, _Copy1D):  # type: ignore[attr-defined]
        raise _invalid("not a 1D memcpy node", "node")
    made = _copy1d_node(dst, src, count, kind)
    target.set_work(made.fn, made.name, info=made.info, keep=made.keep, params=made.params)  # type: ignore[attr-defined]


def _check_set1d(dst: Any, src: Any, count: int) -> None:
    if pointer_value(dst) == 0 or pointer_value(src) == 0 or count == 0 or pointer_value(dst) == pointer_value(src):
        raise _invalid("dst and src must be non-NULL and distinct, count positive", "dst")


@_public()
def hipGraphMemcpyNodeSetParams1D(node: Any, dst: Any, src: Any, count: int, kind: Any) -> None:
    """Make a 1D memcpy node copy other memory."""
    n = _size(count, "count")
    check_enum(kind, _h.hipMemcpyKind, "kind")
    target = _node_of(node)
    _check_set1d(dst, src, n)
    _set_copy1d(target, dst, src, n, kind)


@_public()
def hipGraphExecMemcpyNodeSetParams1D(hGraphExec: Any, node: Any, dst: Any, src: Any, count: int, kind: Any) -> None:
    """Make an executable graph's copy of a 1D memcpy node copy other memory, in the same direction."""
    n = _size(count, "count")
    check_enum(kind, _h.hipMemcpyKind, "kind")
    if pointer_value(hGraphExec) == 0:
        raise _invalid("hGraphExec is NULL", "hGraphExec")
    original = _node_of(node)
    _check_set1d(dst, src, n)
    copy = _exec_of(hGraphExec, "hGraphExec").node_of(original)
    if int(getattr(copy.params, "kind", -1)) != int(kind):  # type: ignore[attr-defined]
        raise _invalid("an executable graph's copy keeps its direction", "kind")
    _set_copy1d(copy, dst, src, n, kind)


#: Captures the copy a 3D copy function queues (one stream per device, captured by one thread at a time).
_scratch_lock = threading.Lock()
_scratch: dict[int, Stream] = {}


def _queued(issue: Callable[[Stream], Any]) -> tuple[Callable[[], Any], str, Any, Any, bool]:
    """The work ``issue(stream)`` queues on a stream (its checks run, nothing runs): ``(fn, name, info, keep,
    inline)`` of the one task, a no-op when it queues none (an empty region)."""
    dev = _h.rocmath.get_device()
    with _scratch_lock:
        s = _scratch.get(dev)
        if s is None or s._state.destroyed or s.device.retired:
            s = _scratch[dev] = Stream(non_blocking=True)
        _graph.begin_capture(s, _graph.CaptureMode.relaxed)
        try:
            issue(s)
        finally:
            try:
                g = _graph.end_capture(s)
            except RocmathError:  # (issue failed, or waited for its copy: that is its error)
                g = None
    if g is None:
        raise _invalid("the copy could not be made a node", "pCopyParams")
    nodes = [n for n in g._nodes if isinstance(n, WorkNode)]
    if not nodes:
        return (lambda: None), "graph memcpy node", {"cat": "copy", "bytes": 0}, None, True
    w = nodes[0]
    return w.fn, w.name, w.info, w.keep, w.inline


def _copy3d_node(params: Any, drv: bool) -> WorkNode:
    """A memcpy node of a ``hipMemcpy3DParms`` (``drv``: ``HIP_MEMCPY3D``): the copy hipMemcpy3DAsync
    (hipDrvMemcpy3DAsync) queues, checked by it."""
    fn_name = "hipDrvMemcpy3DAsync" if drv else "hipMemcpy3DAsync"
    copy = getattr(_h, fn_name)

    def issue(s: Stream) -> None:
        status = copy(params, s)[0]
        if status != _h.hipError_t.hipSuccess:
            exc = last_exception()
            raise exc if exc is not None else _invalid(f"{fn_name}: {status.name}", "pCopyParams")

    fn, _, info, keep, inline = _queued(issue)
    kind = getattr(params, "kind", None) if not drv else None
    return WorkNode(NodeType.memcpy, fn, "graph memcpy node", info=info, keep=(keep, params), inline=inline,
                    params=_Copy3D(params, kind))


class _Copy3D:
    """A 3D memcpy node's parameters: the struct given (as it was) and its kind."""

    def __init__(self, struct: Any, kind: Any):
        self.struct = _struct_copy(struct)
        self.kind = kind


def _struct_copy(struct: Any) -> Any:
    """A copy of a C-layout struct wrapper (hip-python's ``hipMemcpy3DParms``...) a node keeps."""
    new = type(struct)()
    ctypes.memmove(new._ptr, struct._ptr, struct.c_sizeof())
    return new


def _copy_params(p: Any) -> Any:
    params = None if p is None or pointer_value(p) == 0 else _h.hipMemcpy3DParms.fromObj(p)
    if params is None:
        raise _invalid("pCopyParams is NULL", "pCopyParams")
    return params


@_public(2)
def hipGraphAddMemcpyNode(graph: Any, numDependencies: int, pCopyParams: Any, *,
                          pDependencies: Any = None) -> tuple[Any, Any]:
    """Add a node running the 3D copy a ``hipMemcpy3DParms`` describes (checked as hipMemcpy3D checks it)."""
    return _add(graph, numDependencies, pDependencies, lambda: _copy3d_node(_copy_params(pCopyParams), False))


@_public(2)
def hipDrvGraphAddMemcpyNode(hGraph: Any, numDependencies: int, copyParams: Any, ctx: Any, *,
                             dependencies: Any = None) -> tuple[Any, Any]:
    """Add a node running the 3D copy a ``HIP_MEMCPY3D`` describes (``ctx`` must not be NULL)."""
    if pointer_value(ctx) == 0:
        _size(numDependencies, "numDependencies")
        raise _invalid("ctx is NULL", "ctx")

    def make() -> Node:
        if copyParams is None or pointer_value(copyParams) == 0:
            raise _invalid("copyParams is NULL", "copyParams")
        return _copy3d_node(_h.HIP_MEMCPY3D.fromObj(copyParams), True)

    return _add(hGraph, numDependencies, dependencies, make)


@_public()
def hipGraphMemcpyNodeGetParams(node: Any, pNodeParams: Any) -> None:
    """Fill a ``hipMemcpy3DParms`` with a memcpy node's copy (a 1D node's as a one-row 3D copy)."""
    n = _typed(_node_of(node), NodeType.memcpy)
    out = _copy_params(pNodeParams)
    p = n.params
    if isinstance(p, _Copy3D) and isinstance(p.struct, _h.hipMemcpy3DParms):
        ctypes.memmove(out._ptr, p.struct._ptr, p.struct.c_sizeof())
        return
    ctypes.memset(out._ptr, 0, out.c_sizeof())
    if isinstance(p, _Copy1D):
        for side, ptr in ((out.srcPtr, p.src), (out.dstPtr, p.dst)):
            side.ptr, side.pitch, side.xsize, side.ysize = pointer_value(ptr), p.count, p.count, 1
        out.extent.width, out.extent.height, out.extent.depth = p.count, 1, 1
        out.kind = p.kind


def _set_copy3d(target: Node, params: Any, exec_: bool) -> None:
    _typed(target, NodeType.memcpy)
    old = target.params  # type: ignore[attr-defined]
    if exec_ and int(getattr(old, "kind", -1) if old is not None else -1) != int(params.kind):
        raise _invalid("an executable graph's copy keeps its direction", "pNodeParams")
    made = _copy3d_node(params, False)
    target.set_work(made.fn, made.name, info=made.info, keep=made.keep, params=made.params)  # type: ignore[attr-defined]


@_public()
def hipGraphMemcpyNodeSetParams(node: Any, pNodeParams: Any) -> None:
    """Make a memcpy node run another 3D copy."""
    target = _node_of(node)
    _set_copy3d(target, _copy_params(pNodeParams), False)


@_public()
def hipGraphExecMemcpyNodeSetParams(hGraphExec: Any, node: Any, pNodeParams: Any) -> None:
    """Make an executable graph's copy of a memcpy node run another 3D copy of the same direction (both sides
    given)."""
    if pointer_value(hGraphExec) == 0:
        raise _invalid("hGraphExec is NULL", "hGraphExec")
    original = _node_of(node)
    params = _copy_params(pNodeParams)
    if not params.srcPtr.ptr or not params.dstPtr.ptr:
        raise _invalid("an empty copy", "pNodeParams")
    _set_copy3d(_exec_of(hGraphExec, "hGraphExec").node_of(original), params, True)


class _Fill:
    """A memset node's parameters (a snapshot of the hipMemsetParams given)."""

    def __init__(self, dst: Any, element: int, height: int, pitch: int, value: int, width: int):
        self.dst, self.elementSize, self.height, self.pitch = dst, element, height, pitch
        self.value, self.width = value, width


def _fill_values(p: Any) -> _Fill:
    """The members of a memset parameter struct, converted to their C types (``unsigned int``, ``size_t``)."""
    return _Fill(p.dst, _uint(p.elementSize, "elementSize"), _size(p.height, "height"), _size(p.pitch, "pitch"),
                 _uint(p.value, "value"), _size(p.width, "width"))


def _fill_node(f: _Fill, exec_of: _Fill | None = None) -> WorkNode:
    """A memset node's work, checked as HIP checks hipMemsetParams (ihipGraphMemsetParams_validate, then the
    1D or 2D validation): ``height`` rows of ``width`` elements, ``pitch`` bytes apart."""
    es = f.elementSize
    if f.width == 0 or es not in (1, 2, 4) or f.height == 0:
        raise _invalid("width and height must be positive, elementSize 1, 2 or 4", "pMemsetParams")
    r = resolve(f.dst)
    alloc = address_space.find(r.address) if r.device and r.address else None
    known = alloc is not None and alloc.live and not alloc.pooled
    if known and f.pitch * f.height > alloc.nbytes:  # type: ignore[union-attr]
        raise _invalid("pitch * height is larger than the allocation", "pMemsetParams")
    row = f.width * es
    if exec_of is not None and f.height > 1 and (row != exec_of.width * exec_of.elementSize
                                                 or f.height != exec_of.height):
        raise _invalid("an executable graph's 2D memset keeps its width and height", "pNodeParams")
    if f.height == 1:
        extent = row
    else:
        if f.pitch < row:
            raise _invalid("pitch is smaller than a row", "pMemsetParams")
        extent = (f.height - 1) * f.pitch + row
    if not known or (extent > alloc.nbytes - (r.address - alloc.ptr)):  # type: ignore[union-attr]
        raise _invalid("dst is no device memory, or the fill runs past its allocation", "pMemsetParams")
    op = "graph memset node"
    d = _memory._plan_fill(r.address, 0, extent, op)
    dtype = {1: np.uint8, 2: np.dtype("<u2"), 4: np.dtype("<u4")}[es]
    pattern = f.value & ((1 << (8 * es)) - 1)
    pitch, height = (f.pitch, f.height) if f.height > 1 else (row, 1)

    def run() -> None:
        _h._rows(d.nbytes_view(extent), pitch, row, height).view(dtype).fill(pattern)
        assert d.span is not None
        d.span.alloc.last_op = op

    return WorkNode(NodeType.memset, run, op, info={"cat": "memset", "bytes": row * height}, keep=d,
                    inline=row * height <= _memory._INLINE_BYTES, params=f)


def _memset_params(p: Any, arg: str = "pMemsetParams") -> _Fill:
    params = _struct(p, hipMemsetParams, arg)
    if params is None:
        raise _invalid(f"{arg} is NULL", arg)
    return _fill_values(params)


@_public(2)
def hipGraphAddMemsetNode(graph: Any, numDependencies: int, pMemsetParams: Any, *,
                          pDependencies: Any = None) -> tuple[Any, Any]:
    """Add a node setting ``height`` rows of ``width`` elements (1, 2 or 4 bytes) to ``value``."""
    return _add(graph, numDependencies, pDependencies, lambda: _fill_node(_memset_params(pMemsetParams)))


@_public(2)
def hipDrvGraphAddMemsetNode(hGraph: Any, numDependencies: int, memsetParams: Any, ctx: Any, *,
                             dependencies: Any = None) -> tuple[Any, Any]:
    """:func:`hipGraphAddMemsetNode` with a ``HIP_MEMSET_NODE_PARAMS``."""

    def make() -> Node:
        params = _struct(memsetParams, HIP_MEMSET_NODE_PARAMS, "memsetParams")
        if params is None:
            raise _invalid("memsetParams is NULL", "memsetParams")
        return _fill_node(_fill_values(params))

    return _add(hGraph, numDependencies, dependencies, make)


@_public()
def hipGraphMemsetNodeGetParams(node: Any, pNodeParams: Any) -> None:
    """Fill a ``hipMemsetParams`` with a memset node's fill."""
    n = _typed(_node_of(node), NodeType.memset)
    out = _struct(pNodeParams, hipMemsetParams, "pNodeParams")
    if out is None:
        raise _invalid("pNodeParams is NULL", "pNodeParams")
    f = n.params
    out.dst, out.elementSize, out.height, out.pitch, out.value, out.width = (
        f.dst, f.elementSize, f.height, f.pitch, f.value, f.width)


def _set_fill(target: Node, f: _Fill, exec_: bool) -> None:
    _typed(target, NodeType.memset)
    made = _fill_node(f, target.params if exec_ else None)  # type: ignore[attr-defined]
    target.set_work(made.fn, made.name, info=made.info, keep=made.keep, params=made.params)  # type: ignore[attr-defined]


@_public()
def hipGraphMemsetNodeSetParams(node: Any, pNodeParams: Any) -> None:
    """Make a memset node fill other memory."""
    target = _node_of(node)
    f = _memset_params(pNodeParams, "pNodeParams")
    if f.height > 1 and f.pitch < f.width * f.elementSize:
        raise _invalid("pitch is smaller than a row", "pNodeParams")
    _set_fill(target, f, False)


@_public()
def hipGraphExecMemsetNodeSetParams(hGraphExec: Any, node: Any, pNodeParams: Any) -> None:
    """Make an executable graph's copy of a memset node fill other memory (a 2D fill keeps its shape)."""
    if pointer_value(hGraphExec) == 0:
        raise _invalid("hGraphExec is NULL", "hGraphExec")
    original = _node_of(node)
    f = _memset_params(pNodeParams, "pNodeParams")
    if pointer_value(f.dst) == 0:
        raise _invalid("dst is NULL", "pNodeParams")
    _set_fill(_exec_of(hGraphExec, "hGraphExec").node_of(original), f, True)


# --- nodes: kernels and symbols (rocmath has no device code) ----------------------------------------------------


def _kernel_params(p: Any, arg: str = "pNodeParams") -> Any:
    params = _struct(p, hipKernelNodeParams, arg)
    if params is None or pointer_value(params.func) == 0:
        raise _invalid(f"{arg} or its func is NULL", arg)
    return params


def _no_function(params: Any) -> HipError:
    return _rt.StatusError("hipErrorInvalidDeviceFunction",
                           f"func 0x{pointer_value(params.func):x} is no kernel: rocmath loads no modules",
                           arg="pNodeParams")


@_public(2)
def hipGraphAddKernelNode(graph: Any, numDependencies: int, pNodeParams: Any, *,
                          pDependencies: Any = None) -> tuple[Any, Any]:
    """A kernel node needs a ``hipFunction_t`` of a loaded module: with none in rocmath, a non-NULL ``func`` is
    hipErrorInvalidDeviceFunction (HIP's status for a function it cannot find), after HIP's other checks."""
    _size(numDependencies, "numDependencies")
    if pointer_value(graph) == 0:
        raise _invalid("graph is NULL", "graph")
    params = _kernel_params(pNodeParams)
    _graph_of(graph)
    raise _no_function(params)


@_public()
def hipGraphKernelNodeGetParams(node: Any, pNodeParams: Any) -> None:
    """A kernel node's parameters: a captured rocmath kernel has no ``hipFunction_t``, arguments or launch
    geometry, so they read back empty (NULL func, 1x1x1 grid and block)."""
    n = _node_of(node)
    out = _struct(pNodeParams, hipKernelNodeParams, "pNodeParams")
    if out is None:
        raise _invalid("pNodeParams is NULL", "pNodeParams")
    _typed(n, NodeType.kernel)
    out.blockDim, out.gridDim, out.func, out.extra, out.kernelParams, out.sharedMemBytes = (
        _h.dim3(), _h.dim3(), None, None, None, 0)


@_public()
def hipGraphKernelNodeSetParams(node: Any, pNodeParams: Any) -> None:
    """Setting a kernel node's function: hipErrorInvalidDeviceFunction (no modules), after HIP's checks."""
    n = _node_of(node)
    params = _kernel_params(pNodeParams)
    _typed(n, NodeType.kernel)
    raise _no_function(params)


@_public()
def hipGraphExecKernelNodeSetParams(hGraphExec: Any, node: Any, pNodeParams: Any) -> None:
    """As :func:`hipGraphKernelNodeSetParams`, on an executable graph's copy."""
    if pointer_value(hGraphExec) == 0:
        raise _invalid("hGraphExec is NULL", "hGraphExec")
    n = _node_of(node)
    params = _kernel_params(pNodeParams)
    _exec_of(hGraphExec, "hGraphExec").node_of(n)
    raise _no_function(params)


#: A kernel node's attributes, as HIP's GraphKernelNode keeps them: the one attribute in use and its value.
_ATTRIBUTES: weakref.WeakKeyDictionary[Node, tuple[int, Any]] = weakref.WeakKeyDictionary()


def _attribute_node(hNode: Any, attr: Any, value: Any) -> tuple[Node, int]:
    check_enum(attr, hipLaunchAttributeID, "attr")
    if pointer_value(hNode) == 0 or _struct(value, hipLaunchAttributeValue, "value") is None:
        raise _invalid("hNode and value must not be NULL", "value")
    n = _typed(_node_of(hNode, "hNode"), NodeType.kernel, "hNode")
    return n, int(attr)


@_public()
def hipGraphKernelNodeSetAttribute(hNode: Any, attr: Any, value: Any) -> None:
    """Set a kernel node's attribute (kept; a priority is hipErrorInvalidValue, as the AMD runtime's check
    ``priority < Low || priority > High`` refuses every value)."""
    n, a = _attribute_node(hNode, attr, value)
    ids = hipLaunchAttributeID
    if a == ids.hipLaunchAttributeAccessPolicyWindow:
        w = value.accessPolicyWindow
        ratio = float(w.hitRatio)
        if ratio > 1 or ratio < 0 or int(w.missProp) == hipAccessProperty.hipAccessPropertyPersisting \
                or (int(w.num_bytes) > 0 and ratio == 0) or int(w.num_bytes) > 0:
            # (num_bytes above the device's accessPolicyMaxWindowSize, 0 on AMD devices)
            raise _invalid("the access policy window is out of range", "value")
        kept: Any = hipAccessPolicyWindow(w.base_ptr, w.hitProp, ratio, w.missProp, int(w.num_bytes))
    elif a == ids.hipLaunchAttributeCooperative:
        kept = int(value.cooperative)
    else:
        raise _invalid("no priority is in [Low, High] as the AMD runtime compares them", "value")
    _ATTRIBUTES[n] = (a, kept)


@_public()
def hipGraphKernelNodeGetAttribute(hNode: Any, attr: Any, value: Any) -> None:
    """A kernel node's attribute (another attribute in use: hipErrorInvalidValue)."""
    n, a = _attribute_node(hNode, attr, value)
    in_use, kept = _ATTRIBUTES.get(n, (0, None))
    if in_use not in (0, a):
        raise _invalid("another attribute is in use on the node", "attr")
    ids = hipLaunchAttributeID
    if a == ids.hipLaunchAttributeAccessPolicyWindow:
        w = kept if kept is not None else hipAccessPolicyWindow()
        value.accessPolicyWindow = hipAccessPolicyWindow(w.base_ptr, w.hitProp, w.hitRatio, w.missProp, w.num_bytes)
    elif a == ids.hipLaunchAttributeCooperative:
        value.cooperative = kept if kept is not None else 0
    else:
        value.priority = 0


@_public()
def hipGraphKernelNodeCopyAttributes(hSrc: Any, hDst: Any) -> None:
    """Copy a kernel node's attribute to another (a different one in use there: hipErrorInvalidContext)."""
    if pointer_value(hSrc) == 0 or pointer_value(hDst) == 0:
        raise _invalid("hSrc and hDst must not be NULL", "hSrc")
    src, dst = _typed(_node_of(hSrc, "hSrc"), NodeType.kernel), _typed(_node_of(hDst, "hDst"), NodeType.kernel)
    s_use, kept = _ATTRIBUTES.get(src, (0, None))
    d_use, _ = _ATTRIBUTES.get(dst, (0, None))
    if s_use == 0:
        return
    if d_use not in (0, s_use):
        raise _rt.StatusError("hipErrorInvalidContext", "the nodes use different attributes", arg="hDst")
    _ATTRIBUTES[dst] = (s_use, kept)


def _no_symbol() -> HipError:
    return _rt.StatusError("hipErrorInvalidSymbol", "rocmath has no device symbols", arg="symbol")


@_public(2)
def hipGraphAddMemcpyNodeFromSymbol(graph: Any, numDependencies: int, dst: Any, symbol: Any, count: int,
                                    offset: int, kind: Any, *, pDependencies: Any = None) -> tuple[Any, Any]:
    """A copy from a device symbol: none exists in rocmath (hipErrorInvalidSymbol, after HIP's other checks)."""
    _size(numDependencies, "numDependencies")
    c = _size(count, "count")
    _size(offset, "offset")
    check_enum(kind, _h.hipMemcpyKind, "kind")
    if pointer_value(graph) == 0 or c == 0 or pointer_value(dst) == 0:
        raise _invalid("graph and dst must not be NULL, count positive", "graph")
    _graph_of(graph)
    raise _no_symbol()


@_public(2)
def hipGraphAddMemcpyNodeToSymbol(graph: Any, numDependencies: int, symbol: Any, src: Any, count: int,
                                  offset: int, kind: Any, *, pDependencies: Any = None) -> tuple[Any, Any]:
    """A copy to a device symbol: none exists in rocmath (hipErrorInvalidSymbol, after HIP's other checks)."""
    _size(numDependencies, "numDependencies")
    c = _size(count, "count")
    _size(offset, "offset")
    check_enum(kind, _h.hipMemcpyKind, "kind")
    if pointer_value(graph) == 0 or pointer_value(src) == 0 or c == 0:
        raise _invalid("graph and src must not be NULL, count positive", "graph")
    _graph_of(graph)
    raise _no_symbol()


_NOT_EXEC = object()


def _symbol_set(node: Any, pointer: Any, symbol: Any, count: int, offset: int, kind: Any,
                hGraphExec: Any = _NOT_EXEC) -> None:
    c = _size(count, "count")
    _size(offset, "offset")
    check_enum(kind, _h.hipMemcpyKind, "kind")
    if pointer_value(symbol) == 0:
        raise _no_symbol()
    if hGraphExec is not _NOT_EXEC and pointer_value(hGraphExec) == 0:
        raise _invalid("hGraphExec is NULL", "hGraphExec")
    _node_of(node)
    if pointer_value(pointer) == 0 or c == 0 or pointer_value(pointer) == pointer_value(symbol):
        raise _invalid("the pointer must be non-NULL and not the symbol, count positive", "count")
    raise _no_symbol()


@_public()
def hipGraphMemcpyNodeSetParamsFromSymbol(node: Any, dst: Any, symbol: Any, count: int, offset: int,
                                          kind: Any) -> None:
    """No device symbol exists in rocmath (hipErrorInvalidSymbol, after HIP's other checks)."""
    _symbol_set(node, dst, symbol, count, offset, kind)


@_public()
def hipGraphMemcpyNodeSetParamsToSymbol(node: Any, symbol: Any, src: Any, count: int, offset: int, kind: Any) -> None:
    """No device symbol exists in rocmath (hipErrorInvalidSymbol, after HIP's other checks)."""
    _symbol_set(node, src, symbol, count, offset, kind)


@_public()
def hipGraphExecMemcpyNodeSetParamsFromSymbol(hGraphExec: Any, node: Any, dst: Any, symbol: Any, count: int,
                                              offset: int, kind: Any) -> None:
    """No device symbol exists in rocmath (hipErrorInvalidSymbol, after HIP's other checks)."""
    _symbol_set(node, dst, symbol, count, offset, kind, hGraphExec)


@_public()
def hipGraphExecMemcpyNodeSetParamsToSymbol(hGraphExec: Any, node: Any, symbol: Any, src: Any, count: int,
                                            offset: int, kind: Any) -> None:
    """No device symbol exists in rocmath (hipErrorInvalidSymbol, after HIP's other checks)."""
    _symbol_set(node, src, symbol, count, offset, kind, hGraphExec)


# --- nodes: graph memory and external semaphores ---------------------------------------------------------------


#: Device -> the bytes of its graph allocations now and at most (hipDeviceGetGraphMemAttribute's counters).
_graph_memory: dict[int, list[int]] = {}
_graph_memory_lock = threading.Lock()
#: Addresses of alloc nodes whose free node is not added yet (HIP's memAllocNodePtrs_ of every graph).
_allocated: dict[int, Graph] = {}


class _GraphMemory:
    """A graph allocation, shared by the alloc node and its copies (an executable graph's): freed (after the
    device's queued work) once none of them is left."""

    def __init__(self, nbytes: int, device: int):
        self.ptr = address_space.allocate(nbytes, device, _memory.MemoryKind.DEVICE).ptr
        with _graph_memory_lock:
            counters = _graph_memory.setdefault(device, [0, 0])
            counters[0] += nbytes
            counters[1] = max(counters[1], counters[0])
        weakref.finalize(self, _release_graph_allocation, self.ptr, nbytes, device)


class MemAllocNode(Node):
    """A graph memory allocation (``hipGraphAddMemAllocNode``): made when the node is added, the graph's until it
    and its executable graphs are gone; the node itself marks where the memory's use begins."""

    type = NodeType.mem_alloc

    def __init__(self, nbytes: int, device: int, params: Any):
        super().__init__()
        self.memory = _GraphMemory(nbytes, device)
        self.ptr, self.nbytes, self.device, self.params = self.memory.ptr, nbytes, device, params

    def label(self) -> str:
        return f"mem alloc: 0x{self.ptr:x} ({self.nbytes} bytes)"


def _release_graph_allocation(ptr: int, nbytes: int, device: int) -> None:
    with _graph_memory_lock:
        _graph_memory[device][0] -= nbytes
        _allocated.pop(ptr, None)
    _memory.free_later(ptr)


class MemFreeNode(Node):
    """The end of a graph allocation's use (``hipGraphAddMemFreeNode``)."""

    type = NodeType.mem_free

    def __init__(self, ptr: int, alloc_node: MemAllocNode | None):
        super().__init__()
        self.ptr = ptr
        self.memory = alloc_node.memory if alloc_node is not None else None  # (the allocation lives as long)

    def label(self) -> str:
        return f"mem free: 0x{self.ptr:x}"


def _alloc_node(graph: Any, p: Any) -> MemAllocNode:
    params = _struct(p, hipMemAllocNodeParams, "pNodeParams")
    if params is None:
        raise _invalid("pNodeParams is NULL", "pNodeParams")
    props = params.poolProps
    nbytes = _size(params.bytesize, "bytesize")
    if nbytes == 0 or int(props.allocType) != int(_h.hipMemAllocationType.hipMemAllocationTypePinned) \
            or int(props.location.type) != int(_h.hipMemLocationType.hipMemLocationTypeDevice):
        params.dptr = None
        raise _invalid("bytesize 0, or an allocation that is not pinned device memory", "pNodeParams")
    device = int(props.location.id)
    if not 0 <= device < _h.rocmath.get_device_count():
        raise _invalid(f"device {device} does not exist", "pNodeParams")
    params.dptr = None
    node = MemAllocNode(nbytes, device, params)
    params.dptr = _h.Pointer.fromPtr(node.ptr)
    return node


@_public(2)
def hipGraphAddMemAllocNode(graph: Any, numDependencies: int, pNodeParams: Any, *,
                            pDependencies: Any = None) -> tuple[Any, Any]:
    """Add a graph memory allocation of ``pNodeParams.bytesize`` bytes on the device of
    ``pNodeParams.poolProps.location``; its address is written to ``pNodeParams.dptr`` now."""
    pair = _add(graph, numDependencies, pDependencies, lambda: _alloc_node(graph, pNodeParams))
    node = hipGraphNode.find(pair[0])
    with _graph_memory_lock:
        _allocated[node.ptr] = node.graph
    return pair


@_public()
def hipGraphMemAllocNodeGetParams(node: Any, pNodeParams: Any) -> None:
    """Fill ``pNodeParams`` with an alloc node's parameters and address."""
    if pointer_value(node) == 0 or _struct(pNodeParams, hipMemAllocNodeParams, "pNodeParams") is None:
        raise _invalid("node and pNodeParams must not be NULL", "pNodeParams")
    n = _typed(_node_of(node), NodeType.mem_alloc)
    out, p = pNodeParams, n.params
    out.poolProps, out.accessDescs, out.accessDescCount, out.bytesize = (p.poolProps, p.accessDescs,
                                                                           p.accessDescCount, n.nbytes)
    out.dptr = _h.Pointer.fromPtr(n.ptr)


def _free_node(graph: Any, dev_ptr: Any) -> MemFreeNode:
    ptr = resolve(dev_ptr).address
    with _graph_memory_lock:
        owner = _allocated.pop(ptr, None)
    if owner is None:  # no graph allocation (or its free node exists already)
        raise _invalid("dev_ptr is no graph allocation without a free node", "dev_ptr")
    alloc_node = next((n for n in owner._nodes if isinstance(n, MemAllocNode) and n.ptr == ptr), None)
    return MemFreeNode(ptr, alloc_node)


@_public(2)
def hipGraphAddMemFreeNode(graph: Any, numDependencies: int, dev_ptr: Any, *,
                           pDependencies: Any = None) -> tuple[Any, Any]:
    """Add the end of a graph allocation's use (the address an alloc node gave, once)."""
    n = _size(numDependencies, "numDependencies")
    if pointer_value(graph) == 0 or pointer_value(dev_ptr) == 0 or (pDependencies is not None and n == 0):
        raise _invalid("graph and dev_ptr must not be NULL; dependencies need numDependencies", "dev_ptr")
    return _add(graph, n, pDependencies, lambda: _free_node(graph, dev_ptr))


@_public()
def hipGraphMemFreeNodeGetParams(node: Any, dev_ptr: Any) -> None:
    """Write a free node's address through ``dev_ptr`` (a ``ctypes.c_void_p``...)."""
    if pointer_value(node) == 0 or (not isinstance(dev_ptr, ctypes._SimpleCData) and pointer_value(dev_ptr) == 0):
        raise _invalid("node and dev_ptr must not be NULL", "dev_ptr")
    n = _typed(_node_of(node), NodeType.mem_free)
    _lib.write_host(dev_ptr, n.ptr, np.uint64, "dev_ptr", _error)


def _graph_device(device: Any) -> int:
    d = int(_h._c_typed(device, "device", "int"))
    if not 0 <= d < _h.rocmath.get_device_count():
        raise InvalidDeviceError(f"device {d} does not exist", arg="device")
    return d


@_public()
def hipDeviceGetGraphMemAttribute(device: int, attr: Any, value: Any) -> None:
    """Write a device's graph memory counter through ``value`` (a ``ctypes.c_uint64``...): the bytes of its live
    graph allocations (used and reserved are the same here: an allocation is made with its node) and their
    high-water mark."""
    check_enum(attr, hipGraphMemAttributeType, "attr")
    d = _graph_device(device)
    if not isinstance(value, ctypes._SimpleCData) and pointer_value(value) == 0:
        raise _invalid("value is NULL", "value")
    with _graph_memory_lock:
        current, high = _graph_memory.get(d, [0, 0])
    _lib.write_host(value, high if int(attr) % 2 else current, np.uint64, "value", _error)


@_public()
def hipDeviceSetGraphMemAttribute(device: int, attr: Any, value: Any) -> None:
    """Reset a high-water mark to the current value (``*value`` must be 0); the current counters are read-only
    (hipErrorInvalidValue)."""
    check_enum(attr, hipGraphMemAttributeType, "attr")
    d = _graph_device(device)
    if not isinstance(value, ctypes._SimpleCData) and pointer_value(value) == 0:
        raise _invalid("value is NULL", "value")
    if int(attr) % 2 == 0:
        raise _invalid(f"{attr.name} cannot be set", "attr")
    given = _lib.read_host(value, np.uint64, 1, "value", _error)
    if given is None or int(given[0]) != 0:
        raise _invalid("a high-water mark is reset with 0", "value")
    with _graph_memory_lock:
        counters = _graph_memory.setdefault(d, [0, 0])
        counters[1] = counters[0]


@_public()
def hipDeviceGraphMemTrim(device: int) -> None:
    """Give back graph memory no graph holds: none here (an allocation lives exactly as long as its graphs)."""
    _graph_device(device)


def _semaphore_node(kind: NodeType, p: Any, cls: type[_Params]) -> Node:
    params = _struct(p, cls, "nodeParams")
    if params is None:
        raise _invalid("nodeParams is NULL", "nodeParams")
    count = _uint(params.numExtSems, "numExtSems")
    if count:
        raise _invalid("rocmath has no external semaphores (hipImportExternalSemaphore): none can be named",
                       "nodeParams")
    node = WorkNode(kind, lambda: None, f"{kind.name} (no semaphores)", info={"cat": "wait"},
                    params=cls(params.extSemArray, params.paramsArray, count))
    return node


@_public(2)
def hipGraphAddExternalSemaphoresSignalNode(graph: Any, numDependencies: int, nodeParams: Any, *,
                                            pDependencies: Any = None) -> tuple[Any, Any]:
    """A node signalling external semaphores: rocmath has none, so only ``numExtSems`` 0 (a node doing nothing)."""
    return _add(graph, numDependencies, pDependencies, lambda: _semaphore_node(
        NodeType.ext_semaphore_signal, nodeParams, hipExternalSemaphoreSignalNodeParams))


@_public(2)
def hipGraphAddExternalSemaphoresWaitNode(graph: Any, numDependencies: int, nodeParams: Any, *,
                                          pDependencies: Any = None) -> tuple[Any, Any]:
    """A node waiting for external semaphores: rocmath has none, so only ``numExtSems`` 0 (a node doing nothing)."""
    return _add(graph, numDependencies, pDependencies, lambda: _semaphore_node(
        NodeType.ext_semaphore_wait, nodeParams, hipExternalSemaphoreWaitNodeParams))


def _semaphore_get(node: Any, out: Any, kind: NodeType, cls: type[_Params]) -> None:
    n = _node_of(node, "hNode")
    params = _struct(out, cls, "params_out")
    if params is None:
        raise _invalid("params_out is NULL", "params_out")
    _typed(n, kind, "hNode")
    p = n.params
    params.extSemArray, params.paramsArray, params.numExtSems = p.extSemArray, p.paramsArray, p.numExtSems


def _semaphore_set(target: Node, p: Any, kind: NodeType, cls: type[_Params]) -> None:
    _typed(target, kind, "hNode")
    made = _semaphore_node(kind, p, cls)
    target.set_work(made.fn, made.name, info=made.info, params=made.params)  # type: ignore[attr-defined]


@_public()
def hipGraphExternalSemaphoresSignalNodeGetParams(hNode: Any, params_out: Any) -> None:
    """A semaphore signal node's parameters."""
    _semaphore_get(hNode, params_out, NodeType.ext_semaphore_signal, hipExternalSemaphoreSignalNodeParams)


@_public()
def hipGraphExternalSemaphoresWaitNodeGetParams(hNode: Any, params_out: Any) -> None:
    """A semaphore wait node's parameters."""
    _semaphore_get(hNode, params_out, NodeType.ext_semaphore_wait, hipExternalSemaphoreWaitNodeParams)


@_public()
def hipGraphExternalSemaphoresSignalNodeSetParams(hNode: Any, nodeParams: Any) -> None:
    """New parameters for a semaphore signal node (none can be named)."""
    _semaphore_set(_node_of(hNode, "hNode"), nodeParams, NodeType.ext_semaphore_signal,
                   hipExternalSemaphoreSignalNodeParams)


@_public()
def hipGraphExternalSemaphoresWaitNodeSetParams(hNode: Any, nodeParams: Any) -> None:
    """New parameters for a semaphore wait node (none can be named)."""
    _semaphore_set(_node_of(hNode, "hNode"), nodeParams, NodeType.ext_semaphore_wait,
                   hipExternalSemaphoreWaitNodeParams)


@_public()
def hipGraphExecExternalSemaphoresSignalNodeSetParams(hGraphExec: Any, hNode: Any, nodeParams: Any) -> None:
    """New parameters for an executable graph's copy of a semaphore signal node."""
    if pointer_value(hGraphExec) == 0 or pointer_value(hNode) == 0:
        raise _invalid("hGraphExec and hNode must not be NULL", "hNode")
    e, n = _exec_of(hGraphExec, "hGraphExec"), _node_of(hNode, "hNode")
    _semaphore_set(e.node_of(n), nodeParams, NodeType.ext_semaphore_signal, hipExternalSemaphoreSignalNodeParams)


@_public()
def hipGraphExecExternalSemaphoresWaitNodeSetParams(hGraphExec: Any, hNode: Any, nodeParams: Any) -> None:
    """New parameters for an executable graph's copy of a semaphore wait node."""
    if pointer_value(hGraphExec) == 0 or pointer_value(hNode) == 0:
        raise _invalid("hGraphExec and hNode must not be NULL", "hNode")
    e, n = _exec_of(hGraphExec, "hGraphExec"), _node_of(hNode, "hNode")
    _semaphore_set(e.node_of(n), nodeParams, NodeType.ext_semaphore_wait, hipExternalSemaphoreWaitNodeParams)


# --- any node from its parameters ----------------------------------------------------------------------------


def _node_from(graph: Any, params: Any) -> Node:
    """The node a ``hipGraphNodeParams`` describes (HIP's hipGraphAddNode dispatch)."""
    kind = params.type
    t = hipGraphNodeType
    if kind == t.hipGraphNodeTypeKernel:
        raise _no_function(_kernel_params(params.kernel, "nodeParams"))
    if kind == t.hipGraphNodeTypeMemcpy:
        return _copy3d_node(_copy_params(params.memcpy.copyParams), False)
    if kind == t.hipGraphNodeTypeMemset:
        return _fill_node(_memset_params(params.memset, "nodeParams"))
    if kind == t.hipGraphNodeTypeHost:
        return _host_node(_host_node_params(params.host))
    if kind == t.hipGraphNodeTypeGraph:
        if pointer_value(params.graph.graph) == 0:
            raise _invalid("nodeParams.graph.graph is NULL", "nodeParams")
        return ChildGraphNode(_graph_of(params.graph.graph, "nodeParams"))
    if kind in (t.hipGraphNodeTypeWaitEvent, t.hipGraphNodeTypeEventRecord):
        wait = kind == t.hipGraphNodeTypeWaitEvent
        event = params.eventWait.event if wait else params.eventRecord.event
        if pointer_value(event) == 0:
            raise _invalid("the event is NULL", "nodeParams")
        return _event_node(EventWaitNode if wait else EventRecordNode, event)
    if kind == t.hipGraphNodeTypeExtSemaphoreSignal:
        return _semaphore_node(NodeType.ext_semaphore_signal, params.extSemSignal, hipExternalSemaphoreSignalNodeParams)
    if kind == t.hipGraphNodeTypeExtSemaphoreWait:
        return _semaphore_node(NodeType.ext_semaphore_wait, params.extSemWait, hipExternalSemaphoreWaitNodeParams)
    if kind == t.hipGraphNodeTypeMemAlloc:
        return _alloc_node(graph, params.alloc)
    if kind == t.hipGraphNodeTypeMemFree:
        if pointer_value(params.free.dptr) == 0:
            raise _invalid("nodeParams.free.dptr is NULL", "nodeParams")
        return _free_node(graph, params.free.dptr)
    raise _invalid(f"{kind!r} is no node type a node can be made of", "nodeParams")


@_public(2)
def hipGraphAddNode(graph: Any, numDependencies: int, nodeParams: Any, *, pDependencies: Any = None) -> tuple[Any, Any]:
    """Add the node a ``hipGraphNodeParams`` describes (its ``type`` and the union member of that type)."""

    def make() -> Node:
        params = _struct(nodeParams, hipGraphNodeParams, "nodeParams")
        if params is None:
            raise _invalid("nodeParams is NULL", "nodeParams")
        return _node_from(graph, params)

    pair = _add(graph, numDependencies, pDependencies, make)
    node = hipGraphNode.find(pair[0])
    if isinstance(node, MemAllocNode):
        with _graph_memory_lock:
            _allocated[node.ptr] = node.graph  # type: ignore[assignment]
    return pair


# --- executable graphs --------------------------------------------------------------------------------------------


def _instantiate(graph: Any, flags: int) -> hipGraphExec:
    if pointer_value(graph) == 0:
        raise _invalid("graph is NULL", "graph")
    g = _graph_of(graph)
    e = g.instantiate(flags)
    _copy_user_objects(g, e._graph)
    return hipGraphExec.wrap(e)  # type: ignore[no-any-return]


@_public(2)
def hipGraphInstantiate(graph: Any, pLogBuffer: Any, bufferSize: int) -> tuple[hipGraphExec, Any]:
    """An executable graph of the graph as it is now (``(status, pGraphExec, pErrorNode)``; the log buffer is not
    written, as HIP does not write it; a cycle is hipErrorInvalidValue)."""
    _size(bufferSize, "bufferSize")
    return _instantiate(graph, 0), None


@_public(1)
def hipGraphInstantiateWithFlags(graph: Any, flags: int) -> hipGraphExec:
    """:func:`hipGraphInstantiate` with ``flags`` 0, ``hipGraphInstantiateFlagAutoFreeOnLaunch`` or
    ``hipGraphInstantiateFlagUseNodePriority`` (others: hipErrorInvalidValue)."""
    f = _size(flags, "flags")
    if pointer_value(graph) == 0:
        raise _invalid("graph is NULL", "graph")
    if f not in (0, 1, 8):
        raise _invalid(f"flags {f} are not supported", "flags")
    return _instantiate(graph, f)


@_public(1)
def hipGraphInstantiateWithParams(graph: Any, instantiateParams: Any) -> hipGraphExec:
    """:func:`hipGraphInstantiate` with a ``hipGraphInstantiateParams``: its ``result_out`` and ``errNode_out``
    are set; ``hipGraphInstantiateFlagUpload`` uploads on ``uploadStream``."""
    params = _struct(instantiateParams, hipGraphInstantiateParams, "instantiateParams")
    if pointer_value(graph) == 0 or params is None:
        raise _invalid("graph and instantiateParams must not be NULL", "graph")
    f = _size(params.flags, "flags")
    if f not in (0, 1, 2, 4, 8):
        params.result_out = hipGraphInstantiateResult.hipGraphInstantiateError
        raise _invalid(f"flags {f} are not supported", "instantiateParams")
    try:
        e = _instantiate(graph, f)
    except RocmathError:
        params.result_out = hipGraphInstantiateResult.hipGraphInstantiateError
        raise
    params.result_out, params.errNode_out = hipGraphInstantiateResult.hipGraphInstantiateSuccess, None
    if f == 2:
        _stream(params.uploadStream)
    return e


@_public()
def hipGraphLaunch(graphExec: Any, stream: Any) -> None:
    """Queue an executable graph's nodes on ``stream``, in topological order."""
    e = _exec_of(graphExec)
    e.launch(_stream(stream))


@_public()
def hipGraphUpload(graphExec: Any, stream: Any) -> None:
    """Nothing to upload to a simulated device: checks the executable graph and the stream."""
    if pointer_value(graphExec) == 0:
        raise _invalid("graphExec is NULL", "graphExec")
    s = _stream(stream)
    _exec_of(graphExec).upload(s)


@_public()
def hipGraphExecDestroy(graphExec: Any) -> None:
    """Destroy an executable graph (launches already queued still run)."""
    if pointer_value(graphExec) == 0:
        raise _invalid("graphExec is NULL", "graphExec")
    e = _exec_of(graphExec)
    _release_user_objects(e._graph)
    hipGraphExec.drop(e)
    e.destroy()


@_public(2)
def hipGraphExecUpdate(hGraphExec: Any, hGraph: Any) -> tuple[Any, Any]:
    """Give an executable graph a graph's parameters: ``(status, hErrorNode_out, updateResult_out)``; a graph
    whose topology, node types, devices or copy directions differ is hipErrorGraphExecUpdateFailure, with the
    offending node and the reason."""
    if pointer_value(hGraphExec) == 0 or pointer_value(hGraph) == 0:
        raise _invalid("hGraphExec and hGraph must not be NULL", "hGraph")
    e, g = _exec_of(hGraphExec, "hGraphExec"), _graph_of(hGraph, "hGraph")
    try:
        e.update(g)
    except GraphExecUpdateFailureError as exc:
        node = hipGraphNode.wrap(exc.node) if exc.node is not None else None
        _PARTIAL[threading.get_ident()] = (node, hipGraphExecUpdateResult(int(exc.result)))
        raise
    return None, hipGraphExecUpdateResult.hipGraphExecUpdateSuccess


#: The out-parameters of a failed hipGraphExecUpdate (the binding returns None in their places otherwise).
_PARTIAL: dict[int, tuple[Any, Any]] = {}


def _exec_update(hGraphExec: Any, hGraph: Any) -> tuple[Any, ...]:
    """hipGraphExecUpdate as hip-python returns it: the error node and the result even when it fails."""
    result = _bound["hipGraphExecUpdate"](hGraphExec, hGraph)
    partial = _PARTIAL.pop(threading.get_ident(), None)
    if partial is not None and result[0] == _h.hipError_t.hipErrorGraphExecUpdateFailure:
        return (result[0], *partial)
    return result


def _enabled_node(hGraphExec: Any, hNode: Any) -> tuple[GraphExec, Node]:
    if pointer_value(hGraphExec) == 0 or pointer_value(hNode) == 0:
        raise _invalid("hGraphExec and hNode must not be NULL", "hNode")
    return _exec_of(hGraphExec, "hGraphExec"), _node_of(hNode, "hNode")


@_public()
def hipGraphNodeSetEnabled(hGraphExec: Any, hNode: Any, isEnabled: int) -> None:
    """Enable or disable an executable graph's copy of a kernel, memcpy or memset node."""
    flag = _uint(isEnabled, "isEnabled")
    e, n = _enabled_node(hGraphExec, hNode)
    e.set_enabled(n, bool(flag))


@_public(1)
def hipGraphNodeGetEnabled(hGraphExec: Any, hNode: Any) -> int:
    """1 when an executable graph's copy of a kernel, memcpy or memset node runs, else 0."""
    e, n = _enabled_node(hGraphExec, hNode)
    return int(e.is_enabled(n))


# --- user objects -------------------------------------------------------------------------------------------------


class _UserObject:
    """HIP's hip::UserObject: a reference count and the destructor called (``destroy(ptr)``) when it reaches 0."""

    def __init__(self, ptr: Any, destroy: Any, count: int):
        self.ptr, self.count = ptr, count
        self.call, _ = _host_call(hipHostNodeParams(destroy, ptr))

    def release(self, count: int) -> None:
        self.count -= count
        if self.count <= 0:
            hipUserObject.drop(self)
            self.call()


_user_lock = threading.RLock()
#: Graph -> user object -> the references the graph holds (clones and executable graphs hold their own).
_owned: weakref.WeakKeyDictionary[Graph, dict[_UserObject, int]] = weakref.WeakKeyDictionary()


def _copy_user_objects(source: Graph, target: Graph) -> None:
    """A clone (or an executable graph's graph) holds one reference of each user object of its source."""
    with _user_lock:
        for obj in _owned.get(source, {}):
            obj.count += 1
            _owned.setdefault(target, {})[obj] = 1


def _release_user_objects(graph: Graph) -> None:
    with _user_lock:
        for obj, count in _owned.pop(graph, {}).items():
            obj.release(count)


def _user_object(obj: Any) -> _UserObject | None:
    found = hipUserObject.find(obj)
    return found if found else None


def _count(count: Any) -> int:
    c = _uint(count, "count")
    if c == 0 or c > _INT_MAX:
        raise _invalid("count must be in [1, INT_MAX]", "count")
    return c


@_public(1)
def hipUserObjectCreate(ptr: Any, destroy: Any, initialRefcount: int, flags: int) -> hipUserObject:
    """A user object: ``destroy(ptr)`` runs when its last reference goes (``flags`` must be
    ``hipUserObjectNoDestructorSync``)."""
    initial, f = _uint(initialRefcount, "initialRefcount"), _uint(flags, "flags")
    if f != 1 or initial == 0 or destroy is None or initial > _INT_MAX or (
            not callable(destroy) and pointer_value(destroy) == 0):
        raise _invalid("flags must be hipUserObjectNoDestructorSync, initialRefcount positive, destroy non-NULL",
                       "flags")
    return hipUserObject.wrap(_UserObject(ptr, destroy, initial))  # type: ignore[no-any-return]


@_public()
def hipUserObjectRetain(object: Any, count: int) -> None:
    """Add ``count`` references (an unknown object: nothing, as HIP)."""
    c = _count(count)
    if pointer_value(object) == 0:
        raise _invalid("object is NULL", "object")
    with _user_lock:
        obj = _user_object(object)
        if obj is not None:
            obj.count += c


@_public()
def hipUserObjectRelease(object: Any, count: int) -> None:
    """Drop ``count`` references; the last one runs the destructor (more than it has, or an unknown object:
    nothing, as HIP)."""
    c = _count(count)
    if pointer_value(object) == 0:
        raise _invalid("object is NULL", "object")
    with _user_lock:
        obj = _user_object(object)
        if obj is None or obj.count < c:
            return
        if obj.count == c:
            for owned in _owned.values():
                owned.pop(obj, None)
        obj.release(c)


@_public()
def hipGraphRetainUserObject(graph: Any, object: Any, count: int, flags: int) -> None:
    """Make a graph hold ``count`` references (new ones, or moved from the caller with
    ``hipGraphUserObjectMove``); its clones and executable graphs hold one each."""
    c, f = _count(count), _uint(flags, "flags")
    if pointer_value(graph) == 0 or pointer_value(object) == 0 or f not in (0, 1):
        raise _invalid("graph and object must not be NULL, flags 0 or hipGraphUserObjectMove", "flags")
    g = _graph_of(graph)
    with _user_lock:
        obj = _user_object(object)
        if obj is None:
            return
        if f != 1:
            obj.count += c
        owned = _owned.setdefault(g, {})
        owned[obj] = owned.get(obj, 0) + c


@_public()
def hipGraphReleaseUserObject(graph: Any, object: Any, count: int) -> None:
    """Drop ``count`` of a graph's references (more than it holds: nothing, as HIP)."""
    c = _count(count)
    if pointer_value(graph) == 0 or pointer_value(object) == 0:
        raise _invalid("graph and object must not be NULL", "object")
    g = _graph_of(graph)
    with _user_lock:
        obj = _user_object(object)
        owned = _owned.get(g, {})
        if obj is None or obj not in owned or obj.count < c:
            return
        owned[obj] -= c
        if owned[obj] <= 0:
            del owned[obj]
        obj.release(c)


# --- binding -------------------------------------------------------------------------------------------------------

#: The plain functions the ``_spt`` variants wrap.
_PER_THREAD = ("hipStreamBeginCapture", "hipStreamEndCapture", "hipStreamIsCapturing", "hipStreamGetCaptureInfo",
               "hipStreamGetCaptureInfo_v2", "hipGraphLaunch")
_bound: dict[str, Callable[..., tuple[Any, ...]]] = {}


def graph_api(hip_module: Any) -> dict[str, Any]:
    """The names this module adds to :mod:`rocmath.hip.hip`: its functions bound to the HIP runtime's status
    table, the ``_spt`` variants, the enums, structs and handle types, hip-python's type aliases."""
    global _h, _lib
    _h = hip_module
    from . import _lib as lib

    _lib = lib
    names: dict[str, Any] = {}
    for name, (fn, outputs) in _PUBLIC.items():
        names[name] = _bound[name] = binding(_h._HIP, outputs)(fn)
    names["hipGraphExecUpdate"] = functools.wraps(_bound["hipGraphExecUpdate"])(_exec_update)
    for name in _PER_THREAD:
        names[f"{name}_spt"] = _rt._per_thread_variant_of(f"{name}_spt", name, names[name])
    names.update({cls.__name__: cls for cls in _ENUMS})
    names.update({cls.__name__: cls for cls in _STRUCTS})
    for cls in (ihipGraph, hipGraphNode, hipGraphExec, hipUserObject, hipHostFn_t):
        names[cls.__name__] = cls
    names.update(hipGraph_t=ihipGraph, hipGraphNode_t=hipGraphNode, hipGraphExec_t=hipGraphExec,
                 hipUserObject_t=hipUserObject, hipKernelNodeAttrID=hipLaunchAttributeID,
                 hipKernelNodeAttrValue=hipLaunchAttributeValue, **_CONSTANTS)
    for member in hipLaunchAttributeID:  # the hipKernelNodeAttribute* #defines
        names[member.name.replace("hipLaunchAttribute", "hipKernelNodeAttribute")] = member
    return names
