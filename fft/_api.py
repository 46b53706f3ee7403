"""rocFFT's C API (rocfft.h) on the simulated device.

Names drop the ``rocfft_`` prefix; out-parameters become return values
(``plan_create(...)`` returns the plan); a failing call raises the exception of its
``rocfft_status`` (:mod:`rocmath.fft._types`) instead of returning it.

Checks, in this order (the status each raises):

1. ``plan_create``: placement, transform type and precision values (invalid_arg_value);
   ``1 <= dimensions <= 3`` (invalid_dimensions); ``lengths`` has ``dimensions`` positive
   entries and ``number_of_transforms >= 0`` (invalid_arg_value); array types against the
   transform type and placement (invalid_array_type); strides: one per dimension, positive
   (invalid_strides); distances positive (invalid_distance); offsets non-negative
   (invalid_offset); the output layout must not write any element twice (invalid_strides,
   or invalid_distance when batch entries overlap).
2. ``execute``: a live plan (failure); one buffer per array (two for planar), non-null
   (invalid_arg_value); a user work buffer large enough (invalid_work_buffer).  Buffers
   that do not hold the whole layout fault (:class:`rocmath.MemoryAccessFault`) when enqueued.
"""

from __future__ import annotations

import math
import operator
import threading
from collections.abc import Sequence
from typing import Any

import numba
import numpy as np

import rocmath as rm
from rocmath.array import DeviceArray
from rocmath.launch import Buffer, launch
from rocmath.log import profiling
from rocmath.stream import Stream

from . import _kernels as k
from ._log import LogState, bench_command, pointer
from ._plan import ExecPlan, Layout, PlanCache, PlanSpec, default_layout, overlaps
from ._types import (
    ArrayType,
    CommType,
    Precision,
    ResultPlacement,
    RocfftFailure,
    RocfftInvalidArgValue,
    RocfftInvalidArrayType,
    RocfftInvalidDimensions,
    RocfftInvalidDistance,
    RocfftInvalidOffset,
    RocfftInvalidStrides,
    RocfftInvalidWorkBuffer,
    TransformType,
    parse_enum,
)

__all__ = [
    "ExecutionInfo", "Plan", "PlanDescription", "cleanup", "execute", "execution_info_create",
    "execution_info_destroy", "execution_info_set_stream", "execution_info_set_work_buffer", "get_plan_cache",
    "get_version_string", "plan_create", "plan_description_create", "plan_description_destroy",
    "plan_description_set_data_layout", "plan_description_set_scale_factor",
    "plan_destroy", "plan_get_print", "plan_get_work_buffer_size", "setup",
]

VERSION = "1.0.32-rocmath"

def operator_index(v: Any) -> int:
    """``operator.index``, refusing booleans."""
    if isinstance(v, bool):
        raise TypeError("bool is not an index")
    return operator.index(v)


_STORAGE = {Precision.single: np.dtype(np.float32), Precision.double: np.dtype(np.float64),
            Precision.half: np.dtype(np.float16)}


# --- library state -----------------------------------------------------------------------------


class _Library:
    """What ``rocfft_setup`` initializes: the plan cache shared by every plan creation and the
    logging layers (``ROCFFT_LAYER``, read here as rocFFT reads it at setup)."""

    def __init__(self) -> None:
        self.cache = PlanCache()
        self.log = LogState()


_lock = threading.Lock()
_library: _Library | None = None


def _lib() -> _Library:
    global _library
    with _lock:
        if _library is None:
            _library = _Library()
        return _library


def setup() -> None:
    """``rocfft_setup``: initialize the library (optional: the first plan does it too)."""
    _lib().log.trace("rocfft_setup")


def cleanup() -> None:
    """``rocfft_cleanup``: write the profile log, drop the cached plans (plans still held stay
    usable); the next call sets the library up again (reading ``ROCFFT_LAYER`` anew)."""
    global _library
    with _lock:
        lib, _library = _library, None
    if lib is not None:
        lib.log.trace("rocfft_cleanup")
        lib.log.flush()
        lib.cache.clear()


def get_plan_cache() -> PlanCache:
    """The plan cache (bounded by plan count and bytes; ``set_limits``, ``clear``, ``stats``)."""
    return _lib().cache


def get_version_string() -> str:
    """``rocfft_get_version_string``."""
    return VERSION


# --- plan descriptions -------------------------------------------------------------------------


class PlanDescription:
    """A ``rocfft_plan_description``: data layout, scale factor and communicator for a plan.

    Create with :func:`plan_description_create`; it may be destroyed right after
    ``plan_create`` (the plan keeps a copy of what it needs).
    """

    def __init__(self) -> None:
        self.in_array_type = ArrayType.unset
        self.out_array_type = ArrayType.unset
        self.in_offsets: tuple[int, ...] | None = None
        self.out_offsets: tuple[int, ...] | None = None
        self.in_strides: tuple[int, ...] | None = None
        self.out_strides: tuple[int, ...] | None = None
        self.in_distance = 0
        self.out_distance = 0
        self.scale_factor = 1.0
        self.comm_type = CommType.none
        self.in_fields: list[Any] = []  # rocfft_field copies (rocmath.fft._fields)
        self.out_fields: list[Any] = []
        self.destroyed = False

    def __repr__(self) -> str:
        return (f"PlanDescription(in={self.in_array_type.name}, out={self.out_array_type.name}, "
                f"scale={self.scale_factor!r})")


def _description(d: Any, index: int = 1) -> PlanDescription:
    if not isinstance(d, PlanDescription) or d.destroyed:
        raise RocfftInvalidArgValue("not a live plan description", arg="description", index=index)
    return d


def plan_description_create() -> PlanDescription:
    """``rocfft_plan_description_create``."""
    return PlanDescription()


def plan_description_destroy(description: PlanDescription | None) -> None:
    """``rocfft_plan_description_destroy`` (None is accepted, as a null pointer is)."""
    if isinstance(description, PlanDescription):
        description.destroyed = True


def _int_list(values: Any, count: int | None, arg: str, index: int) -> tuple[int, ...] | None:
    if values is None:
        return None
    try:
        seq = [values] if isinstance(values, (int, np.integer)) else list(values)
        out = tuple(int(operator_index(v)) for v in seq)
    except TypeError:
        raise RocfftInvalidArgValue(f"expected integers, got {values!r}", arg=arg, index=index) from None
    if count is not None:
        if len(out) < count:
            raise RocfftInvalidArgValue(f"{len(out)} values given, {count} expected", arg=arg, index=index)
        out = out[:count]
    return out


def plan_description_set_data_layout(description: PlanDescription, in_array_type: ArrayType | int,
                                     out_array_type: ArrayType | int, in_offsets: Sequence[int] | None,
                                     out_offsets: Sequence[int] | None, in_strides_size: int,
                                     in_strides: Sequence[int] | None, in_distance: int, out_strides_size: int,
                                     out_strides: Sequence[int] | None, out_distance: int) -> None:
    """``rocfft_plan_description_set_data_layout``.

    Parameters
    ----------
    description
        The description to change.
    in_array_type, out_array_type
        :class:`ArrayType` of the input and output (``unset``: the transform's default).
    in_offsets, out_offsets
        Offsets in elements from the buffer pointers: one value, or two (real and imaginary
        buffers) for planar arrays; None keeps zero.
    in_strides_size, in_strides, out_strides_size, out_strides
        Strides in elements, ``lengths[0]``'s first; None keeps the default (contiguous,
        or padded rows for in-place real data).  Must have one entry per dimension.
    in_distance, out_distance
        Elements between batch entries; 0 keeps the default.
    """
    d = _description(description)
    d.in_array_type = parse_enum(ArrayType, in_array_type, "in_array_type", 2)
    d.out_array_type = parse_enum(ArrayType, out_array_type, "out_array_type", 3)
    offs_in = _int_list(in_offsets, 2 if d.in_array_type.is_planar else 1, "in_offsets", 4)
    offs_out = _int_list(out_offsets, 2 if d.out_array_type.is_planar else 1, "out_offsets", 5)
    n_in = operator_index(in_strides_size) if in_strides is not None else None
    n_out = operator_index(out_strides_size) if out_strides is not None else None
    st_in = _int_list(in_strides, n_in, "in_strides", 7)
    st_out = _int_list(out_strides, n_out, "out_strides", 10)
    if offs_in is not None:
        d.in_offsets = offs_in
    if offs_out is not None:
        d.out_offsets = offs_out
    if st_in is not None:
        d.in_strides = st_in
    if st_out is not None:
        d.out_strides = st_out
    if operator_index(in_distance) != 0:
        d.in_distance = operator_index(in_distance)
    if operator_index(out_distance) != 0:
        d.out_distance = operator_index(out_distance)


def plan_description_set_scale_factor(description: PlanDescription, scale_factor: float) -> None:
    """``rocfft_plan_description_set_scale_factor``: multiply every output by ``scale_factor``.

    Raises
    ------
    RocfftInvalidArgValue
        If the factor is not finite.
    """
    _lib().log.trace("rocfft_plan_description_set_scale_factor", "description", pointer(description), "scale",
                     scale_factor)
    d = _description(description)
    try:
        value = float(scale_factor)
    except (TypeError, ValueError):
        raise RocfftInvalidArgValue(f"not a number: {scale_factor!r}", arg="scale_factor", index=2) from None
    if not math.isfinite(value):
        raise RocfftInvalidArgValue(f"scale factor must be finite, got {value!r}", arg="scale_factor", index=2)
    d.scale_factor = value


# --- plans -------------------------------------------------------------------------------------


class Plan:
    """A ``rocfft_plan``: a handle on an immutable built plan (shared through the plan cache)."""

    def __init__(self, exec_plan: ExecPlan):
        self.exec_plan: ExecPlan | None = exec_plan

    @property
    def spec(self) -> PlanSpec:
        return _live(self).spec

    def __repr__(self) -> str:
        if self.exec_plan is None:
            return "Plan(destroyed)"
        s = self.exec_plan.spec
        return f"Plan({s.transform_type.name}, {s.precision.name}, lengths={list(s.lengths)}, batch={s.batch})"


def _live(plan: Any) -> ExecPlan:
    if not isinstance(plan, Plan) or plan.exec_plan is None:
        raise RocfftFailure("not a live plan", arg="plan", index=1)
    return plan.exec_plan


def _check_types(tt: TransformType, placement: ResultPlacement, inp: ArrayType, out: ArrayType) -> None:
    complex_types = (ArrayType.complex_interleaved, ArrayType.complex_planar)
    herm = (ArrayType.hermitian_interleaved, ArrayType.hermitian_planar)
    inplace = placement == ResultPlacement.inplace
    if tt in (TransformType.complex_forward, TransformType.complex_inverse):
        ok = inp in complex_types and out in complex_types and (not inplace or inp == out)
        why = "complex transforms take complex arrays, the same type in and out when in place"
    elif tt == TransformType.real_forward:
        ok = inp == ArrayType.real and out in herm and (not inplace or out == ArrayType.hermitian_interleaved)
        why = "real forward transforms take real input and Hermitian output (interleaved when in place)"
    else:
        ok = out == ArrayType.real and inp in herm and (not inplace or inp == ArrayType.hermitian_interleaved)
        why = "real inverse transforms take Hermitian input (interleaved when in place) and real output"
    if not ok:
        raise RocfftInvalidArrayType(f"{why}; got {inp.name} -> {out.name}", arg="description", index=8)


def _check_layout(layout: Layout, lengths: tuple[int, ...], batch: int, side: str, output: bool) -> None:
    rank = len(lengths)
    if len(layout.strides) != rank:
        raise RocfftInvalidStrides(f"{len(layout.strides)} {side} strides for {rank} dimensions",
                                   arg=f"{side}_strides")
    if any(s <= 0 for s in layout.strides):
        raise RocfftInvalidStrides(f"{side} strides must be positive, got {list(layout.strides)}",
                                   arg=f"{side}_strides")
    if layout.distance <= 0:
        raise RocfftInvalidDistance(f"{side} distance must be positive, got {layout.distance}",
                                    arg=f"{side}_distance")
    if any(o < 0 for o in layout.offsets):
        raise RocfftInvalidOffset(f"{side} offsets must be non-negative, got {list(layout.offsets)}",
                                  arg=f"{side}_offsets")
    if not output:
        return
    bad = overlaps(layout.strides, lengths, batch, layout.distance)
    if bad == "distance":
        raise RocfftInvalidDistance(f"output batch entries overlap (distance {layout.distance})", arg="out_distance")
    if bad == "strides":
        raise RocfftInvalidStrides(f"output elements overlap (strides {list(layout.strides)}, "
                                   f"distance {layout.distance})", arg="out_strides")


def make_spec(placement: Any, transform_type: Any, precision: Any, dimensions: Any, lengths: Any,
              number_of_transforms: Any, description: PlanDescription | None) -> PlanSpec:
    """Validate ``plan_create``'s arguments and return their canonical form."""
    pl = parse_enum(ResultPlacement, placement, "placement", 2)
    tt = parse_enum(TransformType, transform_type, "transform_type", 3)
    pr = parse_enum(Precision, precision, "precision", 4)
    try:
        rank = operator_index(dimensions)
    except TypeError:
        raise RocfftInvalidDimensions(f"dimensions must be an integer, got {dimensions!r}", arg="dimensions",
                                      index=5) from None
    if not 1 <= rank <= 3:
        raise RocfftInvalidDimensions(f"dimensions must be 1, 2 or 3, got {rank}", arg="dimensions", index=5)
    lens = _int_list(lengths, rank, "lengths", 6)
    if lens is None or any(n < 1 for n in lens):
        raise RocfftInvalidArgValue(f"lengths must be {rank} positive integers, got {lengths!r}", arg="lengths",
                                    index=6)
    try:
        batch = operator_index(number_of_transforms)
    except TypeError:
        raise RocfftInvalidArgValue(f"number_of_transforms must be an integer, got {number_of_transforms!r}",
                                    arg="number_of_transforms", index=7) from None
    if batch < 0:
        raise RocfftInvalidArgValue(f"number_of_transforms must be >= 0, got {batch}", arg="number_of_transforms",
                                    index=7)
    d = _description(description, 8) if description is not None else PlanDescription()
    inp = default_layout(tt, pl, lens, "in", d.in_array_type, d.in_offsets, d.in_strides, d.in_distance)
    out = default_layout(tt, pl, lens, "out", d.out_array_type, d.out_offsets, d.out_strides, d.out_distance)
    _check_types(tt, pl, inp.array_type, out.array_type)
    spec = PlanSpec(pl, tt, pr, lens, batch, inp, out, d.scale_factor)
    _check_layout(inp, spec.in_lengths, batch, "in", False)
    _check_layout(out, spec.out_lengths, batch, "out", True)
    return spec


def plan_create(placement: ResultPlacement | int, transform_type: TransformType | int,
                precision: Precision | int, dimensions: int, lengths: Sequence[int], number_of_transforms: int,
                description: PlanDescription | None = None) -> Plan:
    """``rocfft_plan_create``: plan ``number_of_transforms`` transforms of the given lengths.

    Parameters
    ----------
    placement
        In place (the output overwrites the input buffers) or not.
    transform_type
        Complex forward/inverse, real forward (real to Hermitian) or real inverse.
    precision
        Single, double, or half (stored as half, computed in single).
    dimensions
        1, 2 or 3.
    lengths
        The lengths, ``lengths[0]`` the fastest-varying (contiguous) dimension.
    number_of_transforms
        The batch count.
    description
        Layout and scale (None: contiguous data, rocFFT's default layout).

    Returns
    -------
    Plan
        A plan sharing its precomputed decomposition and twiddles with every equal plan
        (the plan cache is keyed on the canonical parameters, never on a stream).
    """
    lib = _lib()
    if lib.log.layer:
        lens = " ".join(str(v) for v in lengths) if isinstance(lengths, Sequence) else str(lengths)
        lib.log.trace("rocfft_plan_create", "plan", "0", "placement", _plain(placement), "transform_type",
                      _plain(transform_type), "precision", _plain(precision), "dimensions", dimensions, "lengths", lens,
                      "number_of_transforms", number_of_transforms, "description", pointer(description))
    spec = make_spec(placement, transform_type, precision, dimensions, lengths, number_of_transforms, description)
    lib.log.bench(spec)
    from . import _fields

    if _fields.has_fields(description):
        return _fields.field_plan_create(spec, description)
    return Plan(lib.cache.get(spec))


def _plain(value: Any) -> str:
    """An argument of a trace line: enums by value (as rocFFT prints them), anything else as given."""
    return str(int(value)) if isinstance(value, (int, np.integer)) else str(value)


def plan_destroy(plan: Plan | None) -> None:
    """``rocfft_plan_destroy`` (work already enqueued with the plan still runs)."""
    _lib().log.trace("rocfft_plan_destroy", "plan", pointer(plan))
    if isinstance(plan, Plan):
        plan.exec_plan = None


def plan_get_work_buffer_size(plan: Plan) -> int:
    """``rocfft_plan_get_work_buffer_size``: the work buffer bytes an execution needs (0: none).

    Besides the intermediate of multi-pass plans that cannot keep it in the output, Bluestein
    plans need their convolution buffers (four of the convolution length per chunk group and
    lane): they live in the work buffer, as rocFFT's Bluestein temporaries do.
    """
    from . import _fields

    ep = _live(plan)
    # Field plans allocate their per-device temporaries themselves.
    size = 0 if isinstance(plan, _fields.FieldPlan) else ep.work_bytes
    _lib().log.trace("rocfft_plan_get_work_buffer_size", "plan", pointer(plan), "size_in_bytes ptr", "0", "val", size)
    return size


def plan_get_print(plan: Plan) -> str:
    """``rocfft_plan_get_print``: print (and return) how the plan decomposes its transform."""
    text = _live(plan).describe()
    print(text)
    return text


# --- execution ---------------------------------------------------------------------------------


class ExecutionInfo:
    """A ``rocfft_execution_info``: the stream and the work buffer of executions."""

    def __init__(self) -> None:
        self.stream: Any = None
        self.work_buffer: int = 0
        self.work_buffer_size = 0
        self.destroyed = False


def _info(info: Any) -> ExecutionInfo:
    if not isinstance(info, ExecutionInfo) or info.destroyed:
        raise RocfftInvalidArgValue("not a live execution info", arg="info", index=1)
    return info


def execution_info_create() -> ExecutionInfo:
    """``rocfft_execution_info_create``."""
    return ExecutionInfo()


def execution_info_destroy(info: ExecutionInfo | None) -> None:
    """``rocfft_execution_info_destroy``."""
    if isinstance(info, ExecutionInfo):
        info.destroyed = True


def execution_info_set_stream(info: ExecutionInfo, stream: Stream | int | None) -> None:
    """``rocfft_execution_info_set_stream``: executions with ``info`` run on ``stream``
    (None or 0: the null stream)."""
    _lib().log.trace("rocfft_execution_info_set_stream", "info", pointer(info), "stream", pointer(stream))
    i = _info(info)
    if stream is not None and not isinstance(stream, (Stream, int)):
        raise RocfftInvalidArgValue(f"not a stream: {stream!r}", arg="stream", index=2)
    i.stream = stream if stream is not None else 0


def _ptr(value: Any) -> int:
    if isinstance(value, DeviceArray):
        return int(value.ptr)
    if value is None:
        return 0
    return int(operator_index(value))


def execution_info_set_work_buffer(info: ExecutionInfo, work_buffer: Any, size_in_bytes: int) -> None:
    """``rocfft_execution_info_set_work_buffer``: executions use this buffer instead of allocating one.

    Raises
    ------
    RocfftInvalidWorkBuffer
        For a null buffer.
    """
    _lib().log.trace("rocfft_execution_info_set_work_buffer", "info", pointer(info), "work_buffer",
                     pointer(work_buffer), "size_in_bytes", size_in_bytes)
    i = _info(info)
    ptr = _ptr(work_buffer)
    if ptr == 0:
        raise RocfftInvalidWorkBuffer("work buffer is null", arg="work_buffer", index=2)
    i.work_buffer = ptr
    i.work_buffer_size = int(operator_index(size_in_bytes))


def _buffers(values: Any, count: int, arg: str, index: int) -> list[tuple[int, Any]]:
    if isinstance(values, (DeviceArray, int, np.integer)):
        values = [values]
    if values is None or len(values) < count:
        raise RocfftInvalidArgValue(f"{count} buffer pointer(s) needed", arg=arg, index=index)
    out = []
    for v in list(values)[:count]:
        try:
            p = _ptr(v)
        except TypeError:
            raise RocfftInvalidArgValue(f"not a device pointer: {v!r}", arg=arg, index=index) from None
        if p == 0:
            raise RocfftInvalidArgValue("null buffer pointer", arg=arg, index=index)
        out.append((p, v if isinstance(v, DeviceArray) else None))
    return out


def execute(plan: Plan, in_buffers: Any, out_buffers: Any = None, info: ExecutionInfo | None = None) -> None:
    """``rocfft_execute``: enqueue the plan's transform on the info's stream (asynchronous).

    Parameters
    ----------
    plan
        A live plan.
    in_buffers, out_buffers
        Device pointers (ints) or DeviceArrays: one per array, two (real, imaginary) for
        planar arrays.  ``out_buffers`` is ignored for in-place plans.
    info
        Stream and work buffer (None: the current stream, a work buffer allocated per
        execution when the plan needs one).
    """
    log = _lib().log
    if log.layer:
        log.trace("rocfft_execute", "plan", pointer(plan), "in_buffer", _pointers(in_buffers), "out_buffer",
                  _pointers(out_buffers), "info", pointer(info))
    ep = _live(plan)
    from . import _fields

    def run(ins: Any, outs: Any, inf: ExecutionInfo | None) -> None:
        if isinstance(plan, _fields.FieldPlan):
            plan.execute(ins, outs, inf)
        else:
            run_plan(ep, ins, outs, inf)

    table = log.profile_table()
    if table is None:
        run(in_buffers, out_buffers, info)
        return
    # The profile layer: executions and the device time of their launches, per distinct plan.
    with profiling(table, ("rocfft_execute", bench_command(ep.spec))):
        run(in_buffers, out_buffers, info)


def _pointers(values: Any) -> str:
    """Buffer pointers of a trace line (space-separated, as rocFFT prints a pointer array)."""
    if values is None:
        return "0"
    if isinstance(values, (DeviceArray, int, np.integer)):
        values = [values]
    try:
        return " ".join(pointer(int(v) if isinstance(v, np.integer) else v) for v in values)
    except TypeError:
        return pointer(values)


def run_plan(ep: ExecPlan, in_buffers: Any, out_buffers: Any, info: ExecutionInfo | None) -> None:
    """Enqueue one execution of a built plan (the body of :func:`execute`)."""
    spec = ep.spec
    ins = _buffers(in_buffers, spec.inp.buffers, "in_buffer", 2)
    inplace = spec.placement == ResultPlacement.inplace
    outs = ins if inplace else _buffers(out_buffers, spec.out.buffers, "out_buffer", 3)
    i = _info(info) if info is not None else None
    stream = i.stream if i is not None else None
    if spec.batch == 0:
        return
    need = ep.work_bytes
    own_work = 0
    work_ptr = 0
    if need:
        if i is not None and i.work_buffer:
            if i.work_buffer_size < need:
                raise RocfftInvalidWorkBuffer(f"work buffer of {i.work_buffer_size} bytes, {need} needed",
                                              arg="info", index=4)
            work_ptr = i.work_buffer
        else:
            # Each execution its own work buffer, stream-ordered: several streams may run one plan.
            own_work = work_ptr = rm.malloc_async(need, stream)
    store = _STORAGE[spec.precision]
    args: list[Any] = []
    for j, (p, owner) in enumerate(ins):
        off = spec.inp.offsets[j] * spec.inp.cs * store.itemsize
        args.append(Buffer(p + off, store, (ep.in_extent[j],), None, f"in_buffer[{j}]", owner))
    for j, (p, owner) in enumerate(outs):
        off = spec.out.offsets[j] * spec.out.cs * store.itemsize
        args.append(Buffer(p + off, store, (ep.out_extent[j],), None, f"out_buffer[{j}]", owner))
    if need:
        args.append(Buffer(work_ptr, ep.compute_dtype, (2 * ep.work_elements + ep.scratch,), None, "work_buffer"))
    moved = (sum(ep.in_extent) + sum(ep.out_extent)) * store.itemsize
    try:
        launch(_Runner(ep), *args, name="rocfft_execute", stream=stream, flops=ep.flops, bytes=moved)
    finally:
        if own_work:
            rm.free_async(own_work, stream)


class _Runner:
    """The launched work of one execution: every pass of the plan, in order, on the stream."""

    __slots__ = ("ep",)

    def __init__(self, ep: ExecPlan):
        self.ep = ep

    def __call__(self, *views: np.ndarray) -> None:
        ep = self.ep
        spec = ep.spec
        nin, nout = spec.inp.buffers, spec.out.buffers
        ins, outs = list(views[:nin]), list(views[nin:nin + nout])
        half = spec.precision == Precision.half
        stored = outs
        if half:  # storage only: load into single, compute, store the elements written
            ins = [v.astype(np.float32) for v in ins]
            outs = [np.empty(v.shape, dtype=np.float32) for v in outs]
        arrays: dict[str, tuple[np.ndarray, np.ndarray]] = {
            "input": (ins[0], ins[-1]),
            "output": (outs[0], outs[-1]),
        }
        no_scratch = np.empty(0, dtype=ep.compute_dtype)
        scratch = no_scratch
        if ep.work_bytes:
            w = views[nin + nout]
            e = ep.work_elements
            arrays["work"] = (w[:e], w[e:2 * e])
            scratch = w[2 * e:]
        threads = numba.get_num_threads()
        for p in ep.passes:
            sr, si = arrays[p.src]
            dr, di = arrays[p.dst]
            k.fft_pass(p.io, p.sbase, p.dbase, sr, si, dr, di, p.program.ip, p.program.tw, p.scale, threads,
                       scratch if p.scratch else no_scratch)
        if half:
            for j, idx in enumerate(ep.half_out_index):
                stored[j][idx] = outs[j][idx].astype(np.float16)
