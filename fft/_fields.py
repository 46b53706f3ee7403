"""rocFFT's distributed API: fields and bricks, across simulated devices of one process.

A *field* is the global index space of a plan's input or output (the transform lengths,
``lengths[0]`` fastest, plus the batch as the last, slowest index); a *brick* is a box
``[lower, upper)`` of that space with its own element strides, resident on one device.
The bricks of a field must not overlap and must cover it exactly (checked by
``plan_create``, which fails with ``rocfft_status_failure`` otherwise, as rocFFT's
``ValidateFields`` does).  ``execute`` then takes one buffer per brick, in the order the
bricks were added.

How a field plan runs (:class:`FieldPlan`), with ``P`` the devices holding bricks:

- ``"slab"`` (two or more devices, 2D/3D, single or double precision): the data is
  redistributed into slabs of the outermost dimension, one per device; each device runs the
  inner ``rank - 1`` dimensions on its slab; an all-to-all transpose (every device sends
  every other one the part of its slab the other owns, by peer copies) makes slabs of the
  innermost dimension, each laid out with the outermost dimension contiguous; each device
  runs the outermost dimension; the result is redistributed into the output bricks.  Real
  inverse transforms run these steps in reverse order (the outermost dimension first).
- ``"batch"`` (two or more devices, 1D): the batch is split over the devices; no transpose.
- ``"gather"`` (one device, or half precision, whose intermediates the single-device plan
  keeps in single precision): everything is gathered on the first brick's device, the
  single-device plan runs there, and the result is scattered into the output bricks.

Every per-device step is a plan of this library's plan cache, whose passes are the passes
of the single-device plan on the same lines (same programs, twiddles, conjugations, the scale
in the last pass), so results are bitwise identical to the single-device transform.  Copies
between devices go through :func:`rocmath.multi.memcpy_peer` (counted in
:func:`rocmath.multi.peer_traffic`); boxes are packed on the source device and unpacked on
the destination device by copy kernels.  A field plan's ``execute`` returns when the output
bricks are written (it synchronizes with the info's stream first).

Planar arrays and several fields per side are refused (``rocfft_status_failure``), as
rocFFT refuses planar fields; in-place plans take only an input field, whose bricks also
receive the output.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import rocmath as rm
from rocmath import device as _device
from rocmath.array import DeviceArray
from rocmath.launch import Buffer, launch
from rocmath.memory import address_space
from rocmath.multi import memcpy_peer
from rocmath.stream import Stream, as_stream

from . import _api
from ._plan import ExecPlan, Layout, PlanSpec, default_layout, overlaps
from ._types import (
    ArrayType,
    Precision,
    ResultPlacement,
    RocfftFailure,
    RocfftInvalidArgValue,
    RocfftInvalidStrides,
    TransformType,
)

__all__ = [
    "Brick", "Field", "FieldPlan", "brick_create", "brick_destroy", "field_add_brick", "field_create",
    "field_destroy", "plan_description_add_infield", "plan_description_add_outfield",
]


# --- bricks and fields ---------------------------------------------------------------------------


@dataclass
class Brick:
    """A ``rocfft_brick``: the box ``[lower, upper)`` of a field (batch index last), its element
    strides in memory and the device holding it."""

    lower: tuple[int, ...]
    upper: tuple[int, ...]
    stride: tuple[int, ...]
    device: int
    destroyed: bool = False

    @property
    def lengths(self) -> tuple[int, ...]:
        return tuple(u - lo for lo, u in zip(self.lower, self.upper, strict=True))

    @property
    def count(self) -> int:
        return math.prod(self.lengths)


class Field:
    """A ``rocfft_field``: bricks in the order they were added (the order of ``execute``'s buffers)."""

    def __init__(self) -> None:
        self.bricks: list[Brick] = []
        self.destroyed = False

    def __repr__(self) -> str:
        return f"Field({len(self.bricks)} bricks)"


def _live_field(field: Any, index: int) -> Field:
    if not isinstance(field, Field) or field.destroyed:
        raise RocfftInvalidArgValue("not a live field", arg="field", index=index)
    return field


def field_create() -> Field:
    """``rocfft_field_create``: a field with no bricks."""
    _api._lib().log.trace("rocfft_field_create")
    return Field()


def field_destroy(field: Field | None) -> None:
    """``rocfft_field_destroy``: descriptions keep their own copy of the fields added to them."""
    _api._lib().log.trace("rocfft_field_destroy", "field", _api.pointer(field))
    if isinstance(field, Field):
        field.destroyed = True


def brick_create(field_lower: Sequence[int], field_upper: Sequence[int], brick_stride: Sequence[int], dim: int,
                 device_id: int) -> Brick:
    """``rocfft_brick_create``: a brick of a field.

    Parameters
    ----------
    field_lower, field_upper
        The brick's first index (inclusive) and last index (exclusive) in the field, ``dim``
        values each: the transform dimensions (``lengths[0]``'s first) then the batch.
    brick_stride
        The brick's element strides in memory, ``dim`` values (the batch's last).
    dim
        The transform's dimensions plus one.
    device_id
        The device the brick's data is resident on.

    Returns
    -------
    Brick
        The brick (the arrays are copied: they may be reused at once).

    Raises
    ------
    RocfftInvalidArgValue
        If an array has fewer than ``dim`` integers, ``dim`` is not positive, an upper
        bound is below its lower bound, a stride is not positive or ``device_id`` is negative.
    """
    _api._lib().log.trace("rocfft_brick_create", "field_lower", field_lower, "field_upper", field_upper,
                          "brick_stride", brick_stride, "dim", dim, "deviceID", device_id)
    try:
        n = _api.operator_index(dim)
        dev = _api.operator_index(device_id)
    except TypeError:
        raise RocfftInvalidArgValue(f"dim and deviceID must be integers, got {dim!r}, {device_id!r}",
                                    arg="dim", index=5) from None
    if n < 1:
        raise RocfftInvalidArgValue(f"dim must be positive, got {n}", arg="dim", index=5)
    if dev < 0:
        raise RocfftInvalidArgValue(f"deviceID must be non-negative, got {dev}", arg="deviceID", index=6)
    lower = _api._int_list(field_lower, n, "field_lower", 2)
    upper = _api._int_list(field_upper, n, "field_upper", 3)
    stride = _api._int_list(brick_stride, n, "brick_stride", 4)
    if lower is None or upper is None or stride is None:
        raise RocfftInvalidArgValue("field_lower, field_upper and brick_stride are required", arg="brick", index=1)
    if any(lo < 0 or u < lo for lo, u in zip(lower, upper, strict=True)):
        raise RocfftInvalidArgValue(f"bounds must satisfy 0 <= lower <= upper, got {list(lower)}, {list(upper)}",
                                    arg="field_upper", index=3)
    if any(s < 1 for s in stride):
        raise RocfftInvalidArgValue(f"brick strides must be positive, got {list(stride)}", arg="brick_stride",
                                    index=4)
    return Brick(lower, upper, stride, dev)


def brick_destroy(brick: Brick | None) -> None:
    """``rocfft_brick_destroy``: fields keep their own copy of the bricks added to them."""
    _api._lib().log.trace("rocfft_brick_destroy", "brick", _api.pointer(brick))
    if isinstance(brick, Brick):
        brick.destroyed = True


def field_add_brick(field: Field, brick: Brick) -> None:
    """``rocfft_field_add_brick``: append (a copy of) ``brick`` to ``field``.

    Raises
    ------
    RocfftInvalidArgValue
        If ``field`` or ``brick`` is not a live field or brick.
    """
    _api._lib().log.trace("rocfft_field_add_brick", "field", _api.pointer(field), "brick", _api.pointer(brick))
    f = _live_field(field, 1)
    if not isinstance(brick, Brick) or brick.destroyed:
        raise RocfftInvalidArgValue("not a live brick", arg="brick", index=2)
    f.bricks.append(Brick(brick.lower, brick.upper, brick.stride, brick.device))


def _add_field(description: Any, field: Any, side: str) -> None:
    d = _api._description(description)
    f = _live_field(field, 2)
    if not f.bricks:
        raise RocfftInvalidArgValue("a field needs at least one brick", arg="field", index=2)
    copy = Field()
    copy.bricks = list(f.bricks)
    (d.in_fields if side == "in" else d.out_fields).append(copy)


def plan_description_add_infield(description: _api.PlanDescription, field: Field) -> None:
    """``rocfft_plan_description_add_infield``: the plan's input is laid out as ``field``.

    Raises
    ------
    RocfftInvalidArgValue
        For a dead description or field, or a field without bricks.
    """
    _api._lib().log.trace("rocfft_plan_description_add_infield", "description", _api.pointer(description),
                          "field", _api.pointer(field))
    _add_field(description, field, "in")


def plan_description_add_outfield(description: _api.PlanDescription, field: Field) -> None:
    """``rocfft_plan_description_add_outfield``: the plan's output is laid out as ``field``
    (not for in-place plans: their output goes to the input field's bricks).

    Raises
    ------
    RocfftInvalidArgValue
        For a dead description or field, or a field without bricks.
    """
    _api._lib().log.trace("rocfft_plan_description_add_outfield", "description", _api.pointer(description),
                          "field", _api.pointer(field))
    _add_field(description, field, "out")


def has_fields(description: Any) -> bool:
    """Whether ``description`` (a plan description or None) has an input or an output field."""
    return bool(getattr(description, "in_fields", None) or getattr(description, "out_fields", None))


# --- boxes: bricks with memory -------------------------------------------------------------------


@dataclass(frozen=True)
class _Box:
    """A box of a field (batch index last) in memory: element ``lower`` at byte address ``ptr``."""

    lower: tuple[int, ...]
    upper: tuple[int, ...]
    strides: tuple[int, ...]
    device: int
    ptr: int
    owner: Any = None

    @property
    def lengths(self) -> tuple[int, ...]:
        return tuple(u - lo for lo, u in zip(self.lower, self.upper, strict=True))


@dataclass(frozen=True)
class _Elem:
    """How one element of a side is stored: ``cs`` scalars of ``store``."""

    store: np.dtype[Any]
    cs: int

    @property
    def nbytes(self) -> int:
        return self.store.itemsize * self.cs


def _view(box: _Box, lo: Sequence[int], hi: Sequence[int], elem: _Elem, name: str) -> Buffer:
    """The sub-box ``[lo, hi)`` of ``box`` as a kernel argument (slowest index first, then the scalars)."""
    sz = elem.store.itemsize
    start = box.ptr + sum((a - b) * s for a, b, s in zip(lo, box.lower, box.strides, strict=True)) * elem.nbytes
    shape = (*tuple(h - a for a, h in zip(lo, hi, strict=True))[::-1], elem.cs)
    strides = (*tuple(s * elem.nbytes for s in box.strides)[::-1], sz)
    return Buffer(start, elem.store, shape, strides, name, box.owner)


def _copy_kernel(dst: np.ndarray, src: np.ndarray) -> None:
    np.copyto(dst, src)


def _null(device: int) -> Stream:
    return _device.get_device_object(device).null_stream


def _copy_box(dst: _Box, src: _Box, lo: tuple[int, ...], hi: tuple[int, ...], elem: _Elem) -> None:
    """Copy the elements ``[lo, hi)`` of ``src`` into ``dst``: one copy kernel on a device, else
    packed on the source device, sent by a peer copy, unpacked on the destination device."""
    count = math.prod(h - a for a, h in zip(lo, hi, strict=True))
    nbytes = count * elem.nbytes
    shape = (*tuple(h - a for a, h in zip(lo, hi, strict=True))[::-1], elem.cs)
    if dst.device == src.device:
        launch(_copy_kernel, _view(dst, lo, hi, elem, "dst"), _view(src, lo, hi, elem, "src"),
               name="rocfft field copy", stream=_null(src.device), bytes=2 * nbytes, kind="copy")
        return
    send = DeviceArray((nbytes,), np.uint8, device=src.device)
    recv = DeviceArray((nbytes,), np.uint8, device=dst.device)
    launch(_copy_kernel, Buffer(send.ptr, elem.store, shape, None, "packed", send), _view(src, lo, hi, elem, "src"),
           name="rocfft field pack", stream=_null(src.device), bytes=2 * nbytes, kind="copy")
    memcpy_peer(recv, dst.device, send, src.device, nbytes)
    launch(_copy_kernel, _view(dst, lo, hi, elem, "dst"), Buffer(recv.ptr, elem.store, shape, None, "packed", recv),
           name="rocfft field unpack", stream=_null(dst.device), bytes=2 * nbytes, kind="copy")


def redistribute(dst: Sequence[_Box], src: Sequence[_Box], elem: _Elem) -> int:
    """Copy every element of the ``src`` boxes that some ``dst`` box holds (each pair's
    intersection); returns the bytes that went between distinct devices."""
    moved = 0
    for d, s in itertools.product(dst, src):
        lo = tuple(max(a, b) for a, b in zip(d.lower, s.lower, strict=True))
        hi = tuple(min(a, b) for a, b in zip(d.upper, s.upper, strict=True))
        if any(h <= a for a, h in zip(lo, hi, strict=True)):
            continue
        _copy_box(d, s, lo, hi, elem)
        if d.device != s.device:
            moved += math.prod(h - a for a, h in zip(lo, hi, strict=True)) * elem.nbytes
    return moved


def _contiguous(lengths: Sequence[int], order: Sequence[int]) -> tuple[int, ...]:
    """Element strides of a packed box whose axes are laid out fastest first in ``order``."""
    out = [0] * len(lengths)
    acc = 1
    for axis in order:
        out[axis] = acc
        acc *= max(lengths[axis], 1)
    return tuple(out)


@dataclass(frozen=True)
class _Slab:
    """One device's share of a stage: a box of the field and the order of its axes in memory."""

    device: int
    lower: tuple[int, ...]
    upper: tuple[int, ...]
    order: tuple[int, ...]

    @property
    def lengths(self) -> tuple[int, ...]:
        return tuple(u - lo for lo, u in zip(self.lower, self.upper, strict=True))

    @property
    def strides(self) -> tuple[int, ...]:
        return _contiguous(self.lengths, self.order)

    def allocate(self, elem: _Elem) -> _Box:
        arr = DeviceArray((max(math.prod(self.lengths), 1) * elem.nbytes,), np.uint8, device=self.device)
        return _Box(self.lower, self.upper, self.strides, self.device, arr.ptr, arr)


def _slabs(field: Sequence[int], axis: int, devices: Sequence[int], order: Sequence[int]) -> list[_Slab]:
    """``field`` split along ``axis`` into one slab per device (sizes differing by at most one)."""
    from rocmath.multi import partition

    out = []
    for dev, (start, stop) in zip(devices, partition(field[axis], len(devices)), strict=False):
        lo = [0] * len(field)
        hi = list(field)
        lo[axis], hi[axis] = start, stop
        out.append(_Slab(dev, tuple(lo), tuple(hi), tuple(order)))
    return out


# --- field plans ---------------------------------------------------------------------------------


def _elem(layout: Layout, precision: Precision) -> _Elem:
    return _Elem(_api._STORAGE[precision], layout.cs)


def _validate_field(field: Field, lengths: tuple[int, ...], batch: int, side: str) -> None:
    """rocFFT's ``ValidateFields``: right dimension, inside the field, no overlaps, full cover."""
    whole = (*lengths, batch)
    for b in field.bricks:
        if len(b.lower) != len(whole):
            raise RocfftFailure(f"{side} brick has {len(b.lower)} indices, the field {len(whole)} "
                                "(the transform's dimensions plus the batch)", arg="description", index=8)
        if any(u > n for u, n in zip(b.upper, whole, strict=True)):
            raise RocfftFailure(f"{side} brick {list(b.lower)}..{list(b.upper)} is not within the field {list(whole)}",
                                arg="description", index=8)
    for bi, bj in itertools.combinations(field.bricks, 2):
        if all(max(a, c) < min(b, d) for a, b, c, d in zip(bi.lower, bi.upper, bj.lower, bj.upper, strict=True)):
            raise RocfftFailure(f"{side} brick {list(bi.lower)}..{list(bi.upper)} overlaps brick "
                                f"{list(bj.lower)}..{list(bj.upper)}", arg="description", index=8)
    total = sum(b.count for b in field.bricks)
    if total != math.prod(whole):
        raise RocfftFailure(f"{side} field has {math.prod(whole)} elements but its bricks {total}",
                            arg="description", index=8)
    if side == "output":
        for b in field.bricks:
            if b.count and overlaps(b.stride[:-1], b.lengths[:-1], b.lengths[-1], b.stride[-1]):
                raise RocfftInvalidStrides(f"output brick strides {list(b.stride)} write elements twice",
                                           arg="brick_stride")
    count = rm.get_device_count()
    for b in field.bricks:
        if b.device >= count:
            raise RocfftFailure(f"{side} brick on device {b.device}, but there are {count} devices",
                                arg="description", index=8)


class FieldPlan(_api.Plan):
    """A plan whose input and/or output is a field of bricks (see the module's description).

    ``exec_plan`` is the equivalent single-device plan (what ``plan_get_print`` shows);
    :attr:`strategy` says how executions run: ``"slab"``, ``"batch"`` or ``"gather"``.
    """

    def __init__(self, spec: PlanSpec, reference: ExecPlan, in_field: Field | None, out_field: Field | None,
                 device: int):
        super().__init__(reference)
        self.field_spec = spec
        self.in_field = in_field
        self.out_field = out_field
        self.device = device  # where the sides without a field are
        devs = {b.device for f in (in_field, out_field) if f is not None for b in f.bricks}
        if in_field is None or out_field is None:
            devs.add(device)
        self.devices = tuple(sorted(devs))
        rank = len(spec.lengths)
        if len(self.devices) < 2 or spec.precision == Precision.half or spec.batch == 0:
            self.strategy = "gather"
        elif rank == 1:
            self.strategy = "batch" if spec.batch > 1 else "gather"
        else:
            self.strategy = "slab"
        self.last_peer_bytes = 0

    def __repr__(self) -> str:
        return f"FieldPlan({super().__repr__()}, strategy={self.strategy}, devices={list(self.devices)})"

    # -- the sides as boxes --

    def _side(self, field: Field | None, buffers: Any, layout: Layout, lengths: tuple[int, ...], elem: _Elem,
              arg: str, index: int) -> list[_Box]:
        spec = self.field_spec
        if field is None:
            (p, owner), = _api._buffers(buffers, 1, arg, index)
            st = (*layout.strides, layout.distance)
            box = _Box((0,) * (len(lengths) + 1), (*lengths, spec.batch), st, self.device,
                       p + layout.offsets[0] * elem.nbytes, owner)
            self._check_memory(box, elem, arg)
            return [box]
        ptrs = _api._buffers(buffers, len(field.bricks), arg, index)
        boxes = []
        for b, (p, owner) in zip(field.bricks, ptrs, strict=True):
            box = _Box(b.lower, b.upper, b.stride, b.device, p, owner)
            self._check_memory(box, elem, arg)
            boxes.append(box)
        return boxes

    @staticmethod
    def _check_memory(box: _Box, elem: _Elem, arg: str) -> None:
        if any(n == 0 for n in box.lengths):
            return
        hi = sum((n - 1) * s for n, s in zip(box.lengths, box.strides, strict=True)) * elem.nbytes + elem.nbytes
        span = address_space.span(box.ptr, 0, hi, op="rocfft_execute", arg=arg)
        if span.alloc.device != box.device:
            raise RocfftInvalidArgValue(f"{arg}: 0x{box.ptr:x} is {span.alloc.describe()}, but its brick is on "
                                        f"device {box.device}", arg=arg, index=2 if arg == "in_buffer" else 3)

    # -- execution --

    def execute(self, in_buffers: Any, out_buffers: Any, info: _api.ExecutionInfo | None) -> None:
        """Run the transform on the bricks' buffers (returns when the output bricks are written)."""
        spec = self.field_spec
        inplace = spec.placement == ResultPlacement.inplace
        ein, eout = _elem(spec.inp, spec.precision), _elem(spec.out, spec.precision)
        src = self._side(self.in_field, in_buffers, spec.inp, spec.in_lengths, ein, "in_buffer", 2)
        out_field = self.in_field if inplace else self.out_field
        dst = self._side(out_field, in_buffers if inplace else out_buffers, spec.out, spec.out_lengths, eout,
                         "in_buffer" if inplace else "out_buffer", 2 if inplace else 3)
        i = _api._info(info) if info is not None else None
        if i is not None and i.stream not in (None, 0):
            as_stream(i.stream).synchronize()
        for d in self.devices:
            _null(d).synchronize()
        if spec.batch == 0:
            return
        try:
            if self.strategy == "gather":
                self.last_peer_bytes = self._gather(src, dst, ein, eout)
            elif self.strategy == "batch":
                self.last_peer_bytes = self._batch(src, dst, ein, eout)
            else:
                self.last_peer_bytes = self._slab(src, dst, ein, eout)
        finally:
            for d in self.devices:
                _null(d).synchronize()

    def _run(self, device: int, spec: PlanSpec, inp: _Box, out: _Box) -> None:
        """Run the cached plan of ``spec`` on ``device`` from ``inp`` into ``out`` (packed boxes)."""
        ep = _api._lib().cache.get(spec)
        info = _api.ExecutionInfo()
        info.stream = _null(device)
        _api.run_plan(ep, [inp.owner], [out.owner], info)

    def _sub_spec(self, lengths: tuple[int, ...], batch: int, tt: TransformType, scale: float) -> PlanSpec:
        """A not-in-place plan of packed data (rocFFT's default layouts)."""
        spec = self.field_spec
        pl = ResultPlacement.notinplace
        inp = default_layout(tt, pl, lengths, "in", ArrayType.unset, None, None, 0)
        out = default_layout(tt, pl, lengths, "out", ArrayType.unset, None, None, 0)
        return PlanSpec(pl, tt, spec.precision, lengths, batch, inp, out, scale)

    def _gather(self, src: list[_Box], dst: list[_Box], ein: _Elem, eout: _Elem) -> int:
        spec = self.field_spec
        root = src[0].device
        r = len(spec.lengths)
        whole_in = _Slab(root, (0,) * (r + 1), (*spec.in_lengths, spec.batch), tuple(range(r + 1)))
        whole_out = _Slab(root, (0,) * (r + 1), (*spec.out_lengths, spec.batch), tuple(range(r + 1)))
        a, b = whole_in.allocate(ein), whole_out.allocate(eout)
        moved = redistribute([a], src, ein)
        self._run(root, self._sub_spec(spec.lengths, spec.batch, spec.transform_type, spec.scale), a, b)
        return moved + redistribute(dst, [b], eout)

    def _batch(self, src: list[_Box], dst: list[_Box], ein: _Elem, eout: _Elem) -> int:
        spec = self.field_spec
        order = (0, 1)
        ins = [s.allocate(ein) for s in _slabs((*spec.in_lengths, spec.batch), 1, self.devices, order)]
        outs = [s.allocate(eout) for s in _slabs((*spec.out_lengths, spec.batch), 1, self.devices, order)]
        moved = redistribute(ins, src, ein)
        for a, b in zip(ins, outs, strict=True):
            sub = self._sub_spec(spec.lengths, a.lengths[1], spec.transform_type, spec.scale)
            self._run(a.device, sub, a, b)
        return moved + redistribute(dst, outs, eout)

    def _slab(self, src: list[_Box], dst: list[_Box], ein: _Elem, eout: _Elem) -> int:
        """Slabs of the outermost dimension (inner dimensions transformed there), an all-to-all
        transpose to slabs of the innermost dimension (outermost dimension transformed there)."""
        spec = self.field_spec
        tt = spec.transform_type
        r = len(spec.lengths)
        outer = r - 1
        inner_lengths = spec.lengths[:outer]
        natural = tuple(range(r + 1))
        outer_first = (outer, *range(outer), r)  # the outermost dimension contiguous
        # The complex intermediate's lengths (Hermitian for real transforms).
        clen = spec.out_lengths if tt == TransformType.real_forward else spec.in_lengths
        cfield = (*clen, spec.batch)
        celem = _Elem(ein.store, 2)
        c2c = TransformType.complex_inverse if tt.is_inverse else TransformType.complex_forward
        if tt == TransformType.real_inverse:
            # The outermost dimension first (on slabs of dimension 0), then the others.
            b_slabs = _slabs(cfield, 0, self.devices, outer_first)
            b_in = [s.allocate(celem) for s in b_slabs]
            b_out = [s.allocate(celem) for s in b_slabs]
            moved = redistribute(b_in, src, ein)
            for a, b in zip(b_in, b_out, strict=True):
                lines = math.prod(a.lengths) // a.lengths[outer]
                self._run(a.device, self._sub_spec((spec.lengths[outer],), lines, c2c, 1.0), a, b)
            a_slabs = _slabs(cfield, outer, self.devices, natural)
            a_in = [s.allocate(celem) for s in a_slabs]
            moved += redistribute(a_in, b_out, celem)
            rfield = (*spec.out_lengths, spec.batch)
            a_out = [s.allocate(eout) for s in _slabs(rfield, outer, self.devices, natural)]
            for a, b in zip(a_in, a_out, strict=True):
                sub = self._sub_spec(inner_lengths, a.lengths[outer] * spec.batch, tt, spec.scale)
                self._run(a.device, sub, a, b)
            return moved + redistribute(dst, a_out, eout)
        # Complex and real forward: the inner dimensions first (on slabs of the outermost one).
        a_in = [s.allocate(ein) for s in _slabs((*spec.in_lengths, spec.batch), outer, self.devices, natural)]
        a_out = [s.allocate(celem) for s in _slabs(cfield, outer, self.devices, natural)]
        moved = redistribute(a_in, src, ein)
        for a, b in zip(a_in, a_out, strict=True):
            self._run(a.device, self._sub_spec(inner_lengths, a.lengths[outer] * spec.batch, tt, 1.0), a, b)
        b_slabs = _slabs(cfield, 0, self.devices, outer_first)
        b_in = [s.allocate(celem) for s in b_slabs]
        b_out = [s.allocate(eout) for s in b_slabs]
        moved += redistribute(b_in, a_out, celem)  # the all-to-all transpose
        for a, b in zip(b_in, b_out, strict=True):
            lines = math.prod(a.lengths) // a.lengths[outer]
            self._run(a.device, self._sub_spec((spec.lengths[outer],), lines, c2c, spec.scale), a, b)
        return moved + redistribute(dst, b_out, eout)


def field_plan_create(spec: PlanSpec, description: Any) -> FieldPlan:
    """The :class:`FieldPlan` of a validated ``spec`` whose description has fields."""
    in_fields: list[Field] = getattr(description, "in_fields", None) or []
    out_fields: list[Field] = getattr(description, "out_fields", None) or []
    if len(in_fields) > 1 or len(out_fields) > 1:
        raise RocfftFailure("one field per side is supported", arg="description", index=8)
    if spec.placement == ResultPlacement.inplace and (out_fields or not in_fields):
        raise RocfftFailure("in-place plans take an input field only (the output goes to its bricks)",
                            arg="description", index=8)
    if spec.inp.planar or spec.out.planar:
        raise RocfftFailure("fields must not be planar", arg="description", index=8)
    in_field = in_fields[0] if in_fields else None
    out_field = out_fields[0] if out_fields else None
    if in_field is not None:
        _validate_field(in_field, spec.in_lengths, spec.batch, "input")
    if out_field is not None or spec.placement == ResultPlacement.inplace:
        check = out_field if out_field is not None else in_field
        assert check is not None
        _validate_field(check, spec.out_lengths, spec.batch, "output")
    pl = ResultPlacement.notinplace
    tt = spec.transform_type
    ref = PlanSpec(pl, tt, spec.precision, spec.lengths, spec.batch,
                   default_layout(tt, pl, spec.lengths, "in", ArrayType.unset, None, None, 0),
                   default_layout(tt, pl, spec.lengths, "out", ArrayType.unset, None, None, 0), spec.scale)
    return FieldPlan(spec, _api._lib().cache.get(ref), in_field, out_field, rm.get_device())
