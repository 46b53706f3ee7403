"""rocFFT's distributed API: fields and bricks, across simulated devices and MPI ranks.

A *field* is the global index space of a plan's input or output (the transform lengths,
``lengths[0]`` fastest, plus the batch as the last, slowest index); a *brick* is a box
``[lower, upper)`` of that space with its own element strides, resident on one device.
The bricks of a field must not overlap and must cover it exactly (checked by
``plan_create``, which fails with ``rocfft_status_failure`` otherwise, as rocFFT's
``ValidateFields`` does).  ``execute`` then takes one buffer per brick, in the order the
bricks were added.  With an MPI communicator (:mod:`rocmath.fft._mpi`,
``plan_description_set_comm``) each rank adds only its own bricks and passes only their
buffers; ``plan_create`` gathers the bricks of every rank, so a brick's place is a
*location* ``(rank, device)``.

How a field plan runs (:class:`FieldPlan`), with ``P`` the locations holding bricks:

- ``"slab"`` (two or more locations, 2D/3D, single or double precision): the data is
  redistributed into slabs of the outermost dimension, one per location; each runs the
  inner ``rank - 1`` dimensions on its slab; an all-to-all transpose (every location sends
  every other one the part of its slab the other owns) makes slabs of the innermost
  dimension, each laid out with the outermost dimension contiguous; each runs the outermost
  dimension; the result is redistributed into the output bricks.  Real inverse transforms
  run these steps in reverse order (the outermost dimension first).
- ``"pencil"`` (3D, when the input or output bricks are cut along two or more dimensions,
  or there are more locations than slabs): the locations form the most square
  ``p1 x p2`` grid; pencils along dimension 0 (dimensions 1 and 2 cut ``p1`` and ``p2``
  ways), then along dimension 1 (0 and 2 cut), then along dimension 2 (0 and 1 cut), each
  laid out with its own dimension contiguous and transformed there; the first transpose
  exchanges data within the columns of the grid, the second within its rows (reverse
  order for real inverse transforms).
- ``"batch"`` (two or more locations, 1D): the batch is split over the locations; no transpose.
- ``"gather"`` (one location, or half precision, whose intermediates the single-device plan
  keeps in single precision): everything is gathered on the first input brick's location,
  the single-device plan runs there, and the result is scattered into the output bricks.

Every per-location step is a plan of this library's plan cache, whose passes are the passes
of the single-device plan on the same lines (same programs, twiddles, conjugations, the scale
in the last pass), so results are bitwise identical to the single-device transform.  Copies
between devices of a process go through :func:`rocmath.multi.memcpy_peer` (counted in
:func:`rocmath.multi.peer_traffic`); boxes are packed on the source device and unpacked on
the destination device by copy kernels.  Between ranks, each redistribution is one MPI
``Alltoallv`` of host buffers that the source devices pack and the destination devices
unpack.  :attr:`FieldPlan.peer_volume` and :attr:`FieldPlan.comm_volume` are the bytes an
execution moves between devices of one rank and between ranks (from the geometry alone);
``last_peer_bytes`` and ``last_comm_bytes`` what this rank measured in its last execution.
A field plan's ``execute`` returns when this rank's output bricks are written (it
synchronizes with the info's stream first).

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
    CommType,
    Precision,
    ResultPlacement,
    RocfftError,
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
    strides in memory and the device holding it; ``rank`` is the communicator rank that added
    it (0 without a communicator; set by ``plan_create`` from its gathering of the bricks)."""

    lower: tuple[int, ...]
    upper: tuple[int, ...]
    stride: tuple[int, ...]
    device: int
    destroyed: bool = False
    rank: int = 0

    @property
    def location(self) -> tuple[int, int]:
        return self.rank, self.device

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


def _comm(description: Any) -> Any:
    """The MPI communicator of a description (None: this process only)."""
    return getattr(description, "comm", None) if getattr(description, "comm_type", 0) == CommType.mpi else None


def has_fields(description: Any) -> bool:
    """Whether ``description`` (a plan description or None) has an input or an output field, or
    an MPI communicator (a rank may have no bricks: ``plan_create`` is collective all the same)."""
    return bool(getattr(description, "in_fields", None) or getattr(description, "out_fields", None)
                or _comm(description) is not None)


# --- boxes: bricks with memory -------------------------------------------------------------------

Loc = tuple[int, int]  # where data lives: (communicator rank, device of that rank's process)


@dataclass(frozen=True)
class _Box:
    """A box of a field (batch index last) in memory: element ``lower`` at byte address ``ptr``
    on ``device`` of rank ``rank`` (``ptr`` is 0 and ``owner`` None for another rank's box, whose
    geometry alone is known here)."""

    lower: tuple[int, ...]
    upper: tuple[int, ...]
    strides: tuple[int, ...]
    device: int
    ptr: int
    owner: Any = None
    rank: int = 0

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


def _packed_shape(lo: Sequence[int], hi: Sequence[int], elem: _Elem) -> tuple[int, ...]:
    return (*tuple(h - a for a, h in zip(lo, hi, strict=True))[::-1], elem.cs)


def _copy_kernel(dst: np.ndarray, src: np.ndarray) -> None:
    np.copyto(dst, src)


def _null(device: int) -> Stream:
    return _device.get_device_object(device).null_stream


def _copy_box(dst: _Box, src: _Box, lo: tuple[int, ...], hi: tuple[int, ...], elem: _Elem) -> None:
    """Copy the elements ``[lo, hi)`` of ``src`` into ``dst`` (both of this rank): one copy kernel
    on a device, else packed on the source device, sent by a peer copy, unpacked on the destination."""
    nbytes = math.prod(h - a for a, h in zip(lo, hi, strict=True)) * elem.nbytes
    shape = _packed_shape(lo, hi, elem)
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


def _intersection(a: Any, b: Any) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    lo = tuple(max(x, y) for x, y in zip(a.lower, b.lower, strict=True))
    hi = tuple(min(x, y) for x, y in zip(a.upper, b.upper, strict=True))
    return None if any(h <= x for x, h in zip(lo, hi, strict=True)) else (lo, hi)


class _Net:
    """How a plan's boxes move: between the devices of this process by peer copies and, with an
    MPI communicator, between ranks by one ``Alltoallv`` per redistribution, staged through host
    memory (rocFFT's and heFFTe's "not GPU-aware" mode: the source device packs every section it
    sends into the host send buffer, the destination device unpacks from the host receive buffer).

    ``peer_bytes`` counts the bytes copied between distinct devices of this rank, ``mpi_bytes``
    the bytes this rank received from other ranks.
    """

    def __init__(self, comm: Any = None):
        self.comm = comm
        self.rank = 0 if comm is None else comm.Get_rank()
        self.size = 1 if comm is None else comm.Get_size()
        self.peer_bytes = 0
        self.mpi_bytes = 0

    def redistribute(self, dst: Sequence[_Box], src: Sequence[_Box], elem: _Elem) -> None:
        """Copy every element of the ``src`` boxes that some ``dst`` box holds (each pair's
        intersection).  Collective over the communicator: every rank passes the same geometry."""
        me = self.rank
        sends: list[list[tuple[_Box, tuple[int, ...], tuple[int, ...]]]] = [[] for _ in range(self.size)]
        recvs: list[list[tuple[_Box, tuple[int, ...], tuple[int, ...]]]] = [[] for _ in range(self.size)]
        for d, s in itertools.product(dst, src):
            cut = _intersection(d, s)
            if cut is None or d is s:  # a brick used as a stage's share needs no copy
                continue
            lo, hi = cut
            if d.rank == me and s.rank == me:
                _copy_box(d, s, lo, hi, elem)
                if d.device != s.device:
                    self.peer_bytes += math.prod(h - a for a, h in zip(lo, hi, strict=True)) * elem.nbytes
            elif s.rank == me:  # both sides walk the pairs in the same order: the sections line up
                sends[d.rank].append((s, lo, hi))
            elif d.rank == me:
                recvs[s.rank].append((d, lo, hi))
        if self.comm is not None:
            self._exchange(sends, recvs, elem)

    def _exchange(self, sends: list[list[tuple[_Box, tuple[int, ...], tuple[int, ...]]]],
                  recvs: list[list[tuple[_Box, tuple[int, ...], tuple[int, ...]]]], elem: _Elem) -> None:
        def nbytes(lo: tuple[int, ...], hi: tuple[int, ...]) -> int:
            return math.prod(h - a for a, h in zip(lo, hi, strict=True)) * elem.nbytes

        scount = [sum(nbytes(lo, hi) for _, lo, hi in part) for part in sends]
        rcount = [sum(nbytes(lo, hi) for _, lo, hi in part) for part in recvs]
        sdispl = [0, *itertools.accumulate(scount)][:-1]
        rdispl = [0, *itertools.accumulate(rcount)][:-1]
        sbuf = np.empty(sum(scount), np.uint8)
        rbuf = np.empty(sum(rcount), np.uint8)

        def host(buf: np.ndarray, off: int, lo: tuple[int, ...], hi: tuple[int, ...]) -> np.ndarray:
            return buf[off:off + nbytes(lo, hi)].view(elem.store).reshape(_packed_shape(lo, hi, elem))

        used: set[int] = set()
        for part, off in zip(sends, sdispl, strict=True):
            for box, lo, hi in part:
                launch(_copy_kernel, host(sbuf, off, lo, hi), _view(box, lo, hi, elem, "src"),
                       name="rocfft field pack to host", stream=_null(box.device), bytes=2 * nbytes(lo, hi),
                       kind="copy")
                used.add(box.device)
                off += nbytes(lo, hi)
        for dev in sorted(used):
            _null(dev).synchronize()
        self.comm.Alltoallv([sbuf, (scount, sdispl)], [rbuf, (rcount, rdispl)])
        self.mpi_bytes += int(rbuf.nbytes)
        for part, off in zip(recvs, rdispl, strict=True):
            for box, lo, hi in part:
                launch(_copy_kernel, _view(box, lo, hi, elem, "dst"), host(rbuf, off, lo, hi),
                       name="rocfft field unpack from host", stream=_null(box.device), bytes=2 * nbytes(lo, hi),
                       kind="copy")
                off += nbytes(lo, hi)


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
    """One location's share of a stage (or a brick's place): a box of the field and the order of
    its axes in memory."""

    loc: Loc
    lower: tuple[int, ...]
    upper: tuple[int, ...]
    order: tuple[int, ...]

    @property
    def rank(self) -> int:
        return self.loc[0]

    @property
    def device(self) -> int:
        return self.loc[1]

    @property
    def lengths(self) -> tuple[int, ...]:
        return tuple(u - lo for lo, u in zip(self.lower, self.upper, strict=True))

    @property
    def strides(self) -> tuple[int, ...]:
        return _contiguous(self.lengths, self.order)

    def allocate(self, elem: _Elem, me: int) -> _Box:
        """The share as a box: memory on its device when it is rank ``me``'s, else geometry only."""
        if self.rank != me:
            return _Box(self.lower, self.upper, self.strides, self.device, 0, None, self.rank)
        arr = DeviceArray((max(math.prod(self.lengths), 1) * elem.nbytes,), np.uint8, device=self.device)
        return _Box(self.lower, self.upper, self.strides, self.device, arr.ptr, arr, self.rank)


def _bounds(n: int, parts: int) -> list[tuple[int, int]]:
    """``parts`` contiguous ranges covering ``range(n)``, sizes differing by at most one (the
    first ones larger), empty ones kept (a location may have no share)."""
    base, extra = divmod(n, parts)
    out, start = [], 0
    for i in range(parts):
        stop = start + base + (1 if i < extra else 0)
        out.append((start, stop))
        start = stop
    return out


def _split(field: Sequence[int], cuts: Sequence[tuple[int, int]], locs: Sequence[Loc],
           order: Sequence[int]) -> tuple[_Slab, ...]:
    """``field`` cut into ``parts`` along each ``(axis, parts)`` of ``cuts``, one box per location
    (the first cut varying slowest over the locations)."""
    out = []
    for loc, ranges in zip(locs, itertools.product(*(_bounds(field[a], p) for a, p in cuts)), strict=True):
        lo, hi = [0] * len(field), list(field)
        for (axis, _), (a, b) in zip(cuts, ranges, strict=True):
            lo[axis], hi[axis] = a, b
        out.append(_Slab(loc, tuple(lo), tuple(hi), tuple(order)))
    return tuple(out)


def _grid_shape(count: int) -> tuple[int, int]:
    """The most square ``p1 x p2 = count`` with ``p1 <= p2`` (the pencil grid)."""
    p1 = math.isqrt(count)
    while count % p1:
        p1 -= 1
    return p1, count // p1


# --- field plans ---------------------------------------------------------------------------------


def _elem(layout: Layout, precision: Precision) -> _Elem:
    return _Elem(_api._STORAGE[precision], layout.cs)


def _validate_field(field: Field, lengths: tuple[int, ...], batch: int, side: str, me: int = 0) -> None:
    """rocFFT's ``ValidateFields``: right dimension, inside the field, no overlaps, full cover
    (and this rank's bricks on devices it has)."""
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
        if b.rank == me and b.device >= count:
            raise RocfftFailure(f"{side} brick on device {b.device}, but there are {count} devices",
                                arg="description", index=8)


def _cut_axes(field: Field | None, whole: Sequence[int]) -> int:
    """How many transform dimensions (not the batch) the bricks of ``field`` cut."""
    if field is None:
        return 0
    return sum(any(b.lower[a] > 0 or b.upper[a] < whole[a] for b in field.bricks) for a in range(len(whole) - 1))


@dataclass(frozen=True)
class _Phase:
    """One step of a field plan: the sub-plan ``specs[i]`` transforms ``inputs[i]`` into
    ``outputs[i]`` on that share's location (None: an empty share)."""

    inputs: tuple[_Slab, ...]
    outputs: tuple[_Slab, ...]
    specs: tuple[PlanSpec | None, ...]
    ein: _Elem
    eout: _Elem


class FieldPlan(_api.Plan):
    """A plan whose input and/or output is a field of bricks (see the module's description).

    ``exec_plan`` is the equivalent single-device plan (what ``plan_get_print`` shows);
    :attr:`strategy` says how executions run: ``"slab"``, ``"pencil"``, ``"batch"`` or
    ``"gather"``; :attr:`locations` are the ``(rank, device)`` pairs sharing the work.
    """

    def __init__(self, spec: PlanSpec, reference: ExecPlan, in_field: Field | None, out_field: Field | None,
                 device: int, comm: Any = None):
        super().__init__(reference)
        self.field_spec = spec
        self.in_field = in_field
        self.out_field = out_field
        self.device = device  # where the sides without a field are (no communicator then)
        self.comm = comm
        self.rank = 0 if comm is None else comm.Get_rank()
        locs = {b.location for f in (in_field, out_field) if f is not None for b in f.bricks}
        if in_field is None or (out_field is None and spec.placement == ResultPlacement.notinplace):
            locs.add((0, device))  # a plain buffer's device
        self.locations: tuple[Loc, ...] = tuple(sorted(locs))
        self.devices = tuple(sorted({d for r, d in self.locations if r == self.rank}))  # this rank's
        rank = len(spec.lengths)
        clen = spec.out_lengths if spec.transform_type == TransformType.real_forward else spec.in_lengths
        whole_in, whole_out = (*spec.in_lengths, spec.batch), (*spec.out_lengths, spec.batch)
        if len(self.locations) < 2 or spec.precision == Precision.half or spec.batch == 0:
            self.strategy = "gather"
        elif rank == 1:
            self.strategy = "batch" if spec.batch > 1 else "gather"
        elif rank == 3 and (max(_cut_axes(in_field, whole_in), _cut_axes(out_field, whole_out)) >= 2
                            or len(self.locations) > min(spec.lengths[2], clen[0])):
            self.strategy = "pencil"
        else:
            self.strategy = "slab"
        self.phases = self._phases()
        self.comm_volume, self.peer_volume = self._volume()
        self.last_peer_bytes = 0
        self.last_comm_bytes = 0

    def __repr__(self) -> str:
        return f"FieldPlan({super().__repr__()}, strategy={self.strategy}, locations={list(self.locations)})"

    # -- the steps --

    def _sub_spec(self, lengths: tuple[int, ...], batch: int, tt: TransformType, scale: float) -> PlanSpec:
        """A not-in-place plan of packed data (rocFFT's default layouts)."""
        spec = self.field_spec
        pl = ResultPlacement.notinplace
        inp = default_layout(tt, pl, lengths, "in", ArrayType.unset, None, None, 0)
        out = default_layout(tt, pl, lengths, "out", ArrayType.unset, None, None, 0)
        return PlanSpec(pl, tt, spec.precision, lengths, batch, inp, out, scale)

    def _phase(self, ins: tuple[_Slab, ...], outs: tuple[_Slab, ...], ein: _Elem, eout: _Elem,
               axes: tuple[int, ...], tt: TransformType, scale: float) -> _Phase:
        """Transforms of the dimensions ``axes`` (the fastest ones of each share's memory order),
        every other index of a share being a batch entry of its sub-plan."""
        lengths = tuple(self.field_spec.lengths[a] for a in axes)
        specs = []
        for s in ins:
            count = math.prod(s.lengths)
            lines = count // math.prod(s.lengths[a] for a in axes) if count else 0
            specs.append(self._sub_spec(lengths, lines, tt, scale) if lines else None)
        return _Phase(ins, outs, tuple(specs), ein, eout)

    def _phases(self) -> list[_Phase]:
        spec = self.field_spec
        tt = spec.transform_type
        r = len(spec.lengths)
        locs = self.locations
        p = len(locs)
        ein, eout = _elem(spec.inp, spec.precision), _elem(spec.out, spec.precision)
        fin, fout = (*spec.in_lengths, spec.batch), (*spec.out_lengths, spec.batch)
        natural = tuple(range(r + 1))
        all_axes = tuple(range(r))
        if self.strategy == "gather":
            root = self.in_field.bricks[0].location if self.in_field is not None else (0, self.device)
            return [self._phase(_split(fin, (), [root], natural), _split(fout, (), [root], natural), ein, eout,
                                all_axes, tt, spec.scale)]
        if self.strategy == "batch":
            return [self._phase(_split(fin, [(r, p)], locs, natural), _split(fout, [(r, p)], locs, natural), ein,
                                eout, all_axes, tt, spec.scale)]
        # The complex intermediate (Hermitian lengths for real transforms).
        clen = spec.out_lengths if tt == TransformType.real_forward else spec.in_lengths
        cfield = (*clen, spec.batch)
        celem = _Elem(ein.store, 2)
        c2c = TransformType.complex_inverse if tt.is_inverse else TransformType.complex_forward
        if self.strategy == "slab":
            outer = r - 1
            inner = tuple(range(outer))
            outer_first = (outer, *inner, r)  # the outermost dimension contiguous
            slabs = [(outer, p)]
            cols = [(0, p)]
            if tt == TransformType.real_inverse:  # the outermost dimension first, then the others
                return [
                    self._phase(_split(cfield, cols, locs, outer_first), _split(cfield, cols, locs, outer_first),
                                celem, celem, (outer,), c2c, 1.0),
                    self._phase(_split(cfield, slabs, locs, natural), _split(fout, slabs, locs, natural), celem,
                                eout, inner, tt, spec.scale),
                ]
            return [
                self._phase(_split(fin, slabs, locs, natural), _split(cfield, slabs, locs, natural), ein, celem,
                            inner, tt, 1.0),
                self._phase(_split(cfield, cols, locs, outer_first), _split(fout, cols, locs, outer_first), celem,
                            eout, (outer,), c2c, spec.scale),
            ]
        # Pencils on a p1 x p2 grid: along dimension 0 (dimensions 1, 2 cut), along 1 (0, 2 cut),
        # along 2 (0, 1 cut); each transpose exchanges within a row or a column of the grid.
        p1, p2 = _grid_shape(p)
        cuts = {0: [(1, p1), (2, p2)], 1: [(0, p1), (2, p2)], 2: [(0, p1), (1, p2)]}
        orders = {0: natural, 1: (1, 0, 2, 3), 2: (2, 0, 1, 3)}

        def pencils(shape: tuple[int, ...], axis: int) -> tuple[_Slab, ...]:
            return _split(shape, cuts[axis], locs, orders[axis])

        if tt == TransformType.real_inverse:
            return [
                self._phase(pencils(cfield, 2), pencils(cfield, 2), celem, celem, (2,), c2c, 1.0),
                self._phase(pencils(cfield, 1), pencils(cfield, 1), celem, celem, (1,), c2c, 1.0),
                self._phase(pencils(cfield, 0), pencils(fout, 0), celem, eout, (0,), tt, spec.scale),
            ]
        first = tt if tt == TransformType.real_forward else c2c
        return [
            self._phase(pencils(fin, 0), pencils(cfield, 0), ein, celem, (0,), first, 1.0),
            self._phase(pencils(cfield, 1), pencils(cfield, 1), celem, celem, (1,), c2c, 1.0),
            self._phase(pencils(cfield, 2), pencils(fout, 2), celem, eout, (2,), c2c, spec.scale),
        ]

    def _places(self, field: Field | None, lengths: tuple[int, ...]) -> list[_Slab]:
        """Where a side's data is: its bricks, or the whole field on the plan's device."""
        if field is None:
            whole = (*lengths, self.field_spec.batch)
            return list(_split(whole, (), [(0, self.device)], tuple(range(len(whole)))))
        return [_Slab(b.location, b.lower, b.upper, ()) for b in field.bricks]

    def _volume(self) -> tuple[int, int]:
        """Bytes an execution moves between ranks (summed over the ranks) and between distinct
        devices of one rank (summed over the ranks): the sizes of the intersections of every
        redistribution, from the geometry alone."""
        spec = self.field_spec
        out_field = self.in_field if spec.placement == ResultPlacement.inplace else self.out_field
        between = within = 0
        cur: Sequence[_Slab] = self._places(self.in_field, spec.in_lengths)
        steps = [(ph.inputs, ph.ein, ph.outputs) for ph in self.phases]
        steps.append((tuple(self._places(out_field, spec.out_lengths)), self.phases[-1].eout, ()))
        for dst, elem, nxt in steps:
            for d, s in itertools.product(dst, cur):
                cut = _intersection(d, s)
                if cut is None:
                    continue
                n = math.prod(h - a for a, h in zip(*cut, strict=True)) * elem.nbytes
                if d.rank != s.rank:
                    between += n
                elif d.device != s.device:
                    within += n
            cur = nxt
        return between, within

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
        mine = [b for b in field.bricks if b.rank == self.rank]
        ptrs = iter(_api._buffers(buffers, len(mine), arg, index) if mine else ())
        boxes = []
        for b in field.bricks:
            if b.rank != self.rank:
                boxes.append(_Box(b.lower, b.upper, b.stride, b.device, 0, None, b.rank))
                continue
            p, owner = next(ptrs)
            box = _Box(b.lower, b.upper, b.stride, b.device, p, owner, b.rank)
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
        """Run the transform on this rank's bricks' buffers (returns when they are written).

        With a communicator, every rank of it must call ``execute`` (the exchanges are collective)."""
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
        net = _Net(self.comm)
        last = len(self.phases) - 1
        try:
            cur: Sequence[_Box] = src
            for k, ph in enumerate(self.phases):
                # A brick with a share's exact place and packed layout is used in place of a copy
                # (in place, the output bricks are the input bricks: only the input side then).
                ins = [(k == 0 and _same_place(s, src, net.rank)) or s.allocate(ph.ein, net.rank)
                       for s in ph.inputs]
                net.redistribute(ins, cur, ph.ein)
                outs = [(k == last and not inplace and _same_place(s, dst, net.rank)) or s.allocate(ph.eout, net.rank)
                        for s in ph.outputs]
                for a, b, sub in zip(ins, outs, ph.specs, strict=True):
                    if a.rank == net.rank and sub is not None:
                        self._run(a.device, sub, a, b)
                cur = outs
            net.redistribute(dst, cur, eout)
        finally:
            for d in self.devices:
                _null(d).synchronize()
        self.last_peer_bytes = net.peer_bytes
        self.last_comm_bytes = net.mpi_bytes

    @staticmethod
    def _run(device: int, spec: PlanSpec, inp: _Box, out: _Box) -> None:
        """Run the cached plan of ``spec`` on ``device`` from ``inp`` into ``out`` (packed boxes)."""
        ep = _api._lib().cache.get(spec)
        info = _api.ExecutionInfo()
        info.stream = _null(device)
        # The owners (DeviceArrays) keep temporaries alive until the launches ran.
        _api.run_plan(ep, [inp.owner if inp.owner is not None else inp.ptr],
                      [out.owner if out.owner is not None else out.ptr], info)


def _same_place(slab: _Slab, boxes: Sequence[_Box], me: int) -> _Box | None:
    """The box of this rank that is exactly ``slab`` in memory (same place, packed in its order)."""
    if slab.rank != me:
        return None
    for b in boxes:
        if (b.rank, b.device, b.lower, b.upper, b.strides) == (me, slab.device, slab.lower, slab.upper, slab.strides):
            return b
    return None


def field_plan_create(spec: PlanSpec, description: Any) -> _api.Plan:
    """The :class:`FieldPlan` of a validated ``spec`` whose description has fields (collective
    over the description's MPI communicator, when it has one: without a field on any rank, the
    plan is the ordinary plan of each rank)."""
    in_fields: list[Field] = getattr(description, "in_fields", None) or []
    out_fields: list[Field] = getattr(description, "out_fields", None) or []
    comm = _comm(description)
    me = 0
    if comm is not None:
        from ._mpi import gather_fields

        in_fields, out_fields = gather_fields(comm, in_fields, out_fields)
        if not in_fields and not out_fields:
            return _api.Plan(_api._lib().cache.get(spec))
        me = comm.Get_rank()
    error: RocfftError | None = None
    try:
        in_field, out_field = _check_fields(spec, in_fields, out_fields, comm is not None, me)
    except RocfftError as exc:
        error = exc
    if comm is not None:
        # rocFFT leaves it to applications to agree on plan creation; here every rank fails if one does.
        failed = [r for r, bad in enumerate(comm.allgather(error is not None)) if bad]
        if failed and error is None:
            raise RocfftFailure(f"plan creation failed on rank {failed[0]}", arg="description", index=8)
    if error is not None:
        raise error
    pl = ResultPlacement.notinplace
    tt = spec.transform_type
    ref = PlanSpec(pl, tt, spec.precision, spec.lengths, spec.batch,
                   default_layout(tt, pl, spec.lengths, "in", ArrayType.unset, None, None, 0),
                   default_layout(tt, pl, spec.lengths, "out", ArrayType.unset, None, None, 0), spec.scale)
    return FieldPlan(spec, _api._lib().cache.get(ref), in_field, out_field, rm.get_device(), comm)


def _check_fields(spec: PlanSpec, in_fields: list[Field], out_fields: list[Field], distributed: bool,
                  me: int) -> tuple[Field | None, Field | None]:
    if len(in_fields) > 1 or len(out_fields) > 1:
        raise RocfftFailure("one field per side is supported", arg="description", index=8)
    if spec.placement == ResultPlacement.inplace and (out_fields or not in_fields):
        raise RocfftFailure("in-place plans take an input field only (the output goes to its bricks)",
                            arg="description", index=8)
    if distributed and spec.placement == ResultPlacement.notinplace and not (in_fields and out_fields):
        raise RocfftFailure("with an MPI communicator both sides need a field", arg="description", index=8)
    if spec.inp.planar or spec.out.planar:
        raise RocfftFailure("fields must not be planar", arg="description", index=8)
    in_field = in_fields[0] if in_fields else None
    out_field = out_fields[0] if out_fields else None
    if in_field is not None:
        _validate_field(in_field, spec.in_lengths, spec.batch, "input", me)
    if out_field is not None or spec.placement == ResultPlacement.inplace:
        check = out_field if out_field is not None else in_field
        assert check is not None
        _validate_field(check, spec.out_lengths, spec.batch, "output", me)
    return in_field, out_field
