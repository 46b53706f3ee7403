"""rocmath.fft's distributed API (fields and bricks): validation statuses, and transforms split
over bricks on simulated devices bitwise identical to the single-device plan."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

import rocmath as rm
import rocmath.fft as F
from rocmath.multi import peer_traffic, reset_peer_traffic

TT, P, PL, S = F.TransformType, F.Precision, F.ResultPlacement, F.Status


def _status(fn, *args) -> S:
    try:
        fn(*args)
    except F.RocfftError as exc:
        return exc.status
    return S.success


def _packed(lengths: Sequence[int]) -> list[int]:
    st = [1]
    for n in lengths[:-1]:
        st.append(st[-1] * n)
    return st


def _split(full: Sequence[int], axis: int, devices: Sequence[int]) -> list[tuple[list[int], list[int], int]]:
    """Bricks cutting ``full`` (rocFFT order, batch last) along ``axis``, one per device."""
    out = []
    bounds = np.linspace(0, full[axis], len(devices) + 1).astype(int)
    for dev, lo, hi in zip(devices, bounds[:-1], bounds[1:], strict=True):
        low, up = [0] * len(full), list(full)
        low[axis], up[axis] = int(lo), int(hi)
        out.append((low, up, dev))
    return out


def _numpy_slice(low: Sequence[int], up: Sequence[int]) -> tuple[slice, ...]:
    return tuple(slice(a, b) for a, b in zip(low[::-1], up[::-1], strict=True))


def _data(tt: TT, lengths: list[int], batch: int, prec: P) -> np.ndarray:
    rng = np.random.default_rng(sum(lengths) + batch)
    real, cplx = (np.float64, np.complex128) if prec == P.double else (np.float32, np.complex64)
    shape = (batch, *lengths[::-1])
    if tt == TT.real_forward:
        return rng.standard_normal(shape).astype(real)
    if tt == TT.real_inverse:
        return np.fft.rfftn(rng.standard_normal(shape), axes=range(1, len(lengths) + 1)).astype(cplx)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(cplx)


def _sides(tt: TT, lengths: list[int]) -> tuple[list[int], list[int]]:
    half = [lengths[0] // 2 + 1, *lengths[1:]]
    return (half if tt == TT.real_inverse else list(lengths)), (half if tt == TT.real_forward else list(lengths))


def _reference(tt: TT, lengths: list[int], batch: int, prec: P, x: np.ndarray, scale: float) -> np.ndarray:
    _, outl = _sides(tt, lengths)
    odt = x.real.dtype if tt == TT.real_inverse else (np.complex64 if prec != P.double else np.complex128)
    rm.set_device(0)
    d = F.plan_description_create()
    F.plan_description_set_scale_factor(d, scale)
    plan = F.plan_create(PL.notinplace, tt, prec, len(lengths), lengths, batch, d)
    y = rm.DeviceArray((batch, *outl[::-1]), odt)
    F.execute(plan, [rm.to_device(x)], [y])
    return y.get()


def _field_run(tt: TT, lengths: list[int], batch: int, prec: P, x: np.ndarray, in_bricks, out_bricks,
               scale: float = 1.0, pad: int = 0) -> tuple[np.ndarray, F.FieldPlan]:
    """Run a field plan: input/output bricks given as (lower, upper, device) lists (None: a plain buffer
    on device 0); output bricks padded by ``pad`` elements per row."""
    _, outl = _sides(tt, lengths)
    rank = len(lengths)
    odt = x.real.dtype if tt == TT.real_inverse else x.dtype if x.dtype.kind == "c" else (
        np.complex64 if x.dtype == np.float32 else np.complex128)
    d = F.plan_description_create()
    F.plan_description_set_scale_factor(d, scale)
    ins: list[rm.DeviceArray] = []
    if in_bricks is None:
        rm.set_device(0)
        ins.append(rm.to_device(x))
    else:
        field = F.field_create()
        for low, up, dev in in_bricks:
            lens = [b - a for a, b in zip(low, up, strict=True)]
            brick = F.brick_create(low, up, _packed(lens), rank + 1, dev)
            F.field_add_brick(field, brick)
            F.brick_destroy(brick)
            rm.set_device(dev)
            ins.append(rm.to_device(np.ascontiguousarray(x[_numpy_slice(low, up)])))
        F.plan_description_add_infield(d, field)
        F.field_destroy(field)
    outs: list[tuple[rm.DeviceArray, tuple[slice, ...], list[int]]] = []
    if out_bricks is None:
        rm.set_device(0)
        outs.append((rm.DeviceArray((batch, *outl[::-1]), odt), (), [batch, *outl[::-1]]))
    else:
        field = F.field_create()
        for low, up, dev in out_bricks:
            lens = [b - a for a, b in zip(low, up, strict=True)]
            mem = [lens[0] + pad, *lens[1:]]
            brick = F.brick_create(low, up, _packed(mem), rank + 1, dev)
            F.field_add_brick(field, brick)
            rm.set_device(dev)
            outs.append((rm.zeros(tuple(mem[::-1]), odt), _numpy_slice(low, up), lens[::-1]))
        F.plan_description_add_outfield(d, field)
    rm.set_device(0)
    plan = F.plan_create(PL.notinplace, tt, prec, rank, lengths, batch, d)
    F.plan_description_destroy(d)
    assert isinstance(plan, F.FieldPlan)
    F.execute(plan, ins, [o[0] for o in outs])
    got = np.empty((batch, *outl[::-1]), odt)
    for arr, sl, lens in outs:
        got[sl] = arr.get()[tuple(slice(0, n) for n in lens)]
    return got, plan


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


CASES = [
    (TT.complex_forward, [8, 6], 2, 1, 0),
    (TT.complex_inverse, [5, 6, 4], 2, 2, 3),
    (TT.complex_forward, [67, 12], 2, 0, 1),  # Bluestein length
    (TT.complex_forward, [64, 48, 8], 3, 3, 1),
    (TT.real_forward, [8, 6], 3, 1, 0),
    (TT.real_forward, [7, 6, 5], 2, 0, 2),
    (TT.real_inverse, [8, 6], 3, 1, 0),
    (TT.real_inverse, [9, 4, 6], 2, 2, 1),
]


@pytest.mark.parametrize("prec", [P.double, P.single])
@pytest.mark.parametrize("tt, lengths, batch, in_axis, out_axis", CASES)
def test_slab_matches_single_device_bitwise(configure, tt, lengths, batch, in_axis, out_axis, prec) -> None:
    configure(count=2)
    x = _data(tt, lengths, batch, prec)
    inl, outl = _sides(tt, lengths)
    scale = 1.0 / np.prod(lengths)
    ref = _reference(tt, lengths, batch, prec, x, scale)
    in_b = _split([*inl, batch], in_axis, [0, 1])
    out_b = _split([*outl, batch], out_axis, [1, 0])
    reset_peer_traffic()
    got, plan = _field_run(tt, lengths, batch, prec, x, in_b, out_b, scale, pad=1)
    assert plan.strategy == "slab" and plan.devices == (0, 1)
    assert _same_bits(got, ref)
    traffic = peer_traffic()
    assert traffic.get((0, 1), 0) > 0 and traffic.get((1, 0), 0) > 0
    assert plan.last_peer_bytes == plan.peer_volume == sum(traffic.values()) and plan.comm_volume == 0


def test_three_devices_pencil_bricks_and_plain_output(configure) -> None:
    configure(count=3)
    tt, lengths, batch = TT.complex_forward, [12, 10, 9], 2
    x = _data(tt, lengths, batch, P.double)
    ref = _reference(tt, lengths, batch, P.double, x, 1.0)
    # Pencils: the input cut along dimensions 1 and 2 into 4 bricks on 3 devices.
    bricks = []
    for i, (lo1, hi1) in enumerate([(0, 4), (4, 10)]):
        for j, (lo2, hi2) in enumerate([(0, 5), (5, 9)]):
            bricks.append(([0, lo1, lo2, 0], [12, hi1, hi2, batch], (2 * i + j) % 3))
    reset_peer_traffic()
    got, plan = _field_run(tt, lengths, batch, P.double, x, bricks, None)
    assert plan.strategy == "pencil" and plan.devices == (0, 1, 2)
    assert _same_bits(got, ref)
    assert plan.last_peer_bytes == plan.peer_volume == sum(peer_traffic().values())


def _pencils(full: Sequence[int], cuts: Sequence[tuple[int, int]], devices: Sequence[int]):
    """Bricks of ``full`` cut into ``parts`` along each ``(axis, parts)`` (the first cut slowest over
    the devices), sizes differing by at most one, the first ones larger (as field plans cut)."""
    import itertools

    def bounds(n: int, parts: int) -> list[tuple[int, int]]:
        base, extra = divmod(n, parts)
        stops = np.cumsum([base + (i < extra) for i in range(parts)])
        return [(int(a), int(b)) for a, b in zip([0, *stops[:-1]], stops, strict=True)]

    out = []
    for dev, combo in zip(devices, itertools.product(*(bounds(full[a], p) for a, p in cuts)), strict=True):
        low, up = [0] * len(full), list(full)
        for (axis, _), (a, b) in zip(cuts, combo, strict=True):
            low[axis], up[axis] = a, b
        out.append((low, up, dev))
    return out


@pytest.mark.parametrize("tt, lengths, batch, prec", [
    (TT.complex_forward, [12, 10, 9], 2, P.double),
    (TT.real_forward, [8, 6, 5], 2, P.single),
    (TT.real_inverse, [9, 4, 6], 1, P.double),
])
def test_pencils_on_a_two_by_two_grid(configure, tt, lengths, batch, prec) -> None:
    """Bricks already in the first and last pencils: only the two transposes move data, each within
    a row or a column of the 2 x 2 grid of devices (device 2a + b), never across its diagonal."""
    configure(count=4)
    x = _data(tt, lengths, batch, prec)
    inl, outl = _sides(tt, lengths)
    scale = 1.0 / np.prod(lengths)
    ref = _reference(tt, lengths, batch, prec, x, scale)
    along0, along2 = [(1, 2), (2, 2)], [(0, 2), (1, 2)]  # pencils along dimension 0, along dimension 2
    first, last = (along2, along0) if tt == TT.real_inverse else (along0, along2)
    reset_peer_traffic()
    got, plan = _field_run(tt, lengths, batch, prec, x, _pencils([*inl, batch], first, range(4)),
                           _pencils([*outl, batch], last, range(4)), scale)
    assert plan.strategy == "pencil" and plan.devices == (0, 1, 2, 3)
    assert _same_bits(got, ref)
    traffic = peer_traffic()
    assert plan.last_peer_bytes == plan.peer_volume == sum(traffic.values()) and plan.comm_volume == 0
    assert set(traffic) == {(0, 1), (1, 0), (2, 3), (3, 2), (0, 2), (2, 0), (1, 3), (3, 1)}
    # two transposes, each moving half of the complex intermediate (the cut lengths are even)
    clen = outl if tt == TT.real_forward else inl
    itemsize = 16 if prec == P.double else 8
    rows, cols = [(0, 2), (1, 3)], [(0, 1), (2, 3)]
    assert sum(traffic[p] + traffic[p[::-1]] for p in rows + cols) == 2 * np.prod(clen) * batch * itemsize // 2


def test_plain_input_into_output_field(configure) -> None:
    configure(count=2)
    tt, lengths, batch = TT.real_forward, [10, 6], 2
    x = _data(tt, lengths, batch, P.single)
    ref = _reference(tt, lengths, batch, P.single, x, 1.0)
    got, plan = _field_run(tt, lengths, batch, P.single, x, None, _split([6, 6, batch], 2, [1, 0]))
    assert plan.strategy == "slab"
    assert _same_bits(got, ref)


def test_batch_split_for_1d(configure) -> None:
    configure(count=2)
    tt, lengths, batch = TT.complex_forward, [96], 5
    x = _data(tt, lengths, batch, P.double)
    ref = _reference(tt, lengths, batch, P.double, x, 0.5)
    got, plan = _field_run(tt, lengths, batch, P.double, x, _split([96, batch], 0, [0, 1]),
                           _split([96, batch], 1, [1, 0]), 0.5)
    assert plan.strategy == "batch"
    assert _same_bits(got, ref)


def test_one_device_gathers(configure) -> None:
    configure(count=2)
    tt, lengths, batch = TT.real_inverse, [16, 6], 2
    x = _data(tt, lengths, batch, P.double)
    ref = _reference(tt, lengths, batch, P.double, x, 1.0)
    reset_peer_traffic()
    got, plan = _field_run(tt, lengths, batch, P.double, x, _split([9, 6, batch], 1, [1, 1]),
                           _split([16, 6, batch], 0, [1, 1]))
    assert plan.strategy == "gather" and plan.devices == (1,)
    assert _same_bits(got, ref)
    assert peer_traffic() == {}


def test_half_precision_gathers(configure) -> None:
    configure(count=2)
    tt, lengths, batch = TT.complex_forward, [8, 4], 2
    rng = np.random.default_rng(1)
    x = (rng.standard_normal((batch, 4, 8, 2))).astype(np.float16)  # interleaved pairs
    rm.set_device(0)
    plan = F.plan_create(PL.notinplace, tt, P.half, 2, lengths, batch, None)
    y = rm.zeros((batch, 4, 8, 2), np.float16)
    F.execute(plan, [rm.to_device(x)], [y])
    ref = y.get()
    d = F.plan_description_create()
    fin, fout = F.field_create(), F.field_create()
    ins, outs = [], []
    for low, up, dev in _split([8, 4, batch], 1, [0, 1]):
        F.field_add_brick(fin, F.brick_create(low, up, _packed([8, up[1] - low[1], batch]), 3, dev))
        rm.set_device(dev)
        ins.append(rm.to_device(np.ascontiguousarray(x[:, low[1]:up[1]])))
    for low, up, dev in _split([8, 4, batch], 2, [1, 0]):
        F.field_add_brick(fout, F.brick_create(low, up, _packed([8, 4, up[2] - low[2]]), 3, dev))
        rm.set_device(dev)
        outs.append(rm.zeros((up[2] - low[2], 4, 8, 2), np.float16))
    F.plan_description_add_infield(d, fin)
    F.plan_description_add_outfield(d, fout)
    rm.set_device(0)
    fp = F.plan_create(PL.notinplace, tt, P.half, 2, lengths, batch, d)
    assert fp.strategy == "gather"
    F.execute(fp, ins, outs)
    assert _same_bits(np.concatenate([o.get() for o in outs]), ref)


def test_inplace_complex_field(configure) -> None:
    configure(count=2)
    tt, lengths, batch = TT.complex_inverse, [6, 10], 1
    x = _data(tt, lengths, batch, P.double)
    ref = _reference(tt, lengths, batch, P.double, x, 1.0)
    d = F.plan_description_create()
    field = F.field_create()
    bufs, slices = [], []
    for low, up, dev in _split([6, 10, 1], 1, [0, 1]):
        F.field_add_brick(field, F.brick_create(low, up, _packed([6, up[1] - low[1], 1]), 3, dev))
        rm.set_device(dev)
        sl = _numpy_slice(low, up)
        bufs.append(rm.to_device(np.ascontiguousarray(x[sl])))
        slices.append(sl)
    F.plan_description_add_infield(d, field)
    rm.set_device(0)
    plan = F.plan_create(PL.inplace, tt, P.double, 2, lengths, batch, d)
    F.execute(plan, bufs)
    got = np.empty_like(ref)
    for sl, b in zip(slices, bufs, strict=True):
        got[sl] = b.get()
    assert _same_bits(got, ref)
    assert F.plan_get_work_buffer_size(plan) == 0


# --- validation ----------------------------------------------------------------------------------


def test_api_argument_statuses() -> None:
    assert _status(F.brick_create, [0, 0], [4], [1, 4], 2, 0) == S.invalid_arg_value
    assert _status(F.brick_create, [0, 0], [4, 1], [1, 4], 0, 0) == S.invalid_arg_value
    assert _status(F.brick_create, [2, 0], [1, 1], [1, 4], 2, 0) == S.invalid_arg_value
    assert _status(F.brick_create, [0, 0], [4, 1], [0, 4], 2, 0) == S.invalid_arg_value
    assert _status(F.brick_create, [0, 0], [4, 1], [1, 4], 2, -1) == S.invalid_arg_value
    field = F.field_create()
    d = F.plan_description_create()
    assert _status(F.plan_description_add_infield, d, field) == S.invalid_arg_value  # no bricks
    assert _status(F.plan_description_add_outfield, d, None) == S.invalid_arg_value
    assert _status(F.field_add_brick, field, None) == S.invalid_arg_value
    assert _status(F.field_add_brick, None, F.brick_create([0, 0], [4, 1], [1, 4], 2, 0)) == S.invalid_arg_value
    brick = F.brick_create([0, 0], [4, 1], [1, 4], 2, 0)
    F.brick_destroy(brick)
    assert _status(F.field_add_brick, field, brick) == S.invalid_arg_value
    F.field_destroy(field)
    assert _status(F.plan_description_add_infield, d, field) == S.invalid_arg_value
    assert _status(F.plan_description_add_infield, "desc", F.field_create()) == S.invalid_arg_value


def _field(*bricks: tuple[list[int], list[int], int]) -> F.Field:
    f = F.field_create()
    for low, up, dev in bricks:
        F.field_add_brick(f, F.brick_create(low, up, _packed([b - a for a, b in zip(low, up, strict=True)]),
                                            len(low), dev))
    return f


@pytest.mark.parametrize("bricks, status", [
    ([([0, 0, 0], [8, 3, 1], 0), ([0, 3, 0], [8, 6, 1], 0)], S.success),
    ([([0, 0], [8, 1], 0)], S.failure),  # N indices instead of N + 1
    ([([0, 0, 0], [8, 4, 1], 0), ([0, 3, 0], [8, 6, 1], 0)], S.failure),  # overlap
    ([([0, 0, 0], [8, 3, 1], 0)], S.failure),  # does not cover the field
    ([([0, 0, 0], [8, 3, 1], 0), ([0, 3, 0], [8, 7, 1], 0)], S.failure),  # outside the field
    ([([0, 0, 0], [8, 3, 1], 0), ([0, 3, 0], [8, 6, 1], 5)], S.failure),  # no such device
])
def test_plan_create_validates_fields(bricks, status) -> None:
    d = F.plan_description_create()
    F.plan_description_add_infield(d, _field(*bricks))
    assert _status(F.plan_create, PL.notinplace, TT.complex_forward, P.double, 2, [8, 6], 1, d) == status


def test_plan_create_refusals() -> None:
    whole = ([0, 0, 0], [8, 6, 1], 0)
    d = F.plan_description_create()
    F.plan_description_add_infield(d, _field(whole))
    F.plan_description_add_infield(d, _field(whole))
    assert _status(F.plan_create, PL.notinplace, TT.complex_forward, P.double, 2, [8, 6], 1, d) == S.failure
    d = F.plan_description_create()
    F.plan_description_add_infield(d, _field(whole))
    F.plan_description_add_outfield(d, _field(whole))
    assert _status(F.plan_create, PL.inplace, TT.complex_forward, P.double, 2, [8, 6], 1, d) == S.failure
    d = F.plan_description_create()
    F.plan_description_set_data_layout(d, F.ArrayType.complex_planar, F.ArrayType.complex_interleaved, None, None,
                                       0, None, 0, 0, None, 0)
    F.plan_description_add_infield(d, _field(whole))
    assert _status(F.plan_create, PL.notinplace, TT.complex_forward, P.double, 2, [8, 6], 1, d) == S.failure
    # Output bricks whose strides write an element twice.
    d = F.plan_description_create()
    f = F.field_create()
    F.field_add_brick(f, F.brick_create([0, 0, 0], [8, 6, 1], [1, 4, 48], 3, 0))
    F.plan_description_add_outfield(d, f)
    assert _status(F.plan_create, PL.notinplace, TT.complex_forward, P.double, 2, [8, 6], 1, d) == S.invalid_strides


def test_execute_checks_brick_buffers(configure) -> None:
    configure(count=2)
    d = F.plan_description_create()
    F.plan_description_add_infield(d, _field(([0, 0, 0], [8, 3, 1], 0), ([0, 3, 0], [8, 6, 1], 1)))
    rm.set_device(0)
    plan = F.plan_create(PL.notinplace, TT.complex_forward, P.double, 2, [8, 6], 1, d)
    a = rm.zeros(24, np.complex128)
    rm.set_device(1)
    b = rm.zeros(24, np.complex128)
    rm.set_device(0)
    out = rm.zeros(48, np.complex128)
    assert _status(F.execute, plan, [a], [out]) == S.invalid_arg_value  # one buffer per brick
    assert _status(F.execute, plan, [a, 0], [out]) == S.invalid_arg_value
    assert _status(F.execute, plan, [b, a], [out]) == S.invalid_arg_value  # brick 0 lives on device 0
    F.execute(plan, [a, b], [out])
    assert not out.get().any()
