"""rocmath.fft through rocFFT's API: every transform type, dimension, layout and placement
against numpy.fft, with poisoned padding that must survive.

Shared helpers (``run_case``, ``reference``, ``check_error``) are imported by the other
``test_fft_*`` modules.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.fft as F
from rocmath.testing import examples, sentinel_value

TT = F.TransformType
AT = F.ArrayType

EPS = {F.Precision.single: float(np.finfo(np.float32).eps), F.Precision.double: float(np.finfo(np.float64).eps),
       F.Precision.half: float(np.finfo(np.float16).eps)}
STORE = {F.Precision.single: np.float32, F.Precision.double: np.float64, F.Precision.half: np.float16}
MARGIN = 7  # sentinel scalars before and after every buffer


@dataclass
class Case:
    """One rocFFT transform: lengths fastest first, batch, layout (None: rocFFT's defaults)."""

    tt: TT
    lengths: tuple[int, ...]
    batch: int = 1
    precision: F.Precision = F.Precision.double
    inplace: bool = False
    in_type: AT = AT.unset
    out_type: AT = AT.unset
    in_strides: tuple[int, ...] | None = None
    out_strides: tuple[int, ...] | None = None
    in_dist: int = 0
    out_dist: int = 0
    in_offsets: tuple[int, ...] | None = None
    out_offsets: tuple[int, ...] | None = None
    scale: float = 1.0
    stream: object = None
    extra: dict = field(default_factory=dict)


def _host_shape(lengths: tuple[int, ...], batch: int) -> tuple[int, ...]:
    return (batch, *reversed(lengths))


def _indices(lengths: tuple[int, ...], strides: tuple[int, ...], dist: int, batch: int) -> np.ndarray:
    """Element index of every logical element, in host order (batch, ..., fastest)."""
    idx = np.arange(batch, dtype=np.int64).reshape((batch,) + (1,) * len(lengths)) * dist
    for d, (n, s) in enumerate(zip(lengths, strides, strict=True)):
        shape = [1] * (len(lengths) + 1)
        shape[len(lengths) - d] = n
        idx = idx + (np.arange(n, dtype=np.int64) * s).reshape(shape)
    return idx


def reference(case: Case, x: np.ndarray) -> np.ndarray:
    """The unnormalized rocFFT result in double, via numpy.fft (the test oracle)."""
    axes = tuple(range(1, len(case.lengths) + 1))
    n = math.prod(case.lengths)
    xd = x.astype(np.complex128 if np.iscomplexobj(x) else np.float64)
    if case.tt == TT.complex_forward:
        y = np.fft.fftn(xd, axes=axes)
    elif case.tt == TT.complex_inverse:
        y = np.fft.ifftn(xd, axes=axes) * n
    elif case.tt == TT.real_forward:
        y = np.fft.rfftn(xd, axes=axes)
    else:
        y = np.fft.irfftn(xd, s=tuple(reversed(case.lengths)), axes=axes) * n
    return y * case.scale


def make_input(case: Case, rng: np.random.Generator) -> np.ndarray:
    """Random input of the case's logical shape (Hermitian-symmetric for real inverse transforms)."""
    shape = _host_shape(case.lengths, case.batch)
    store = STORE[case.precision]
    if case.tt == TT.real_forward:
        return rng.standard_normal(shape).astype(store)
    if case.tt == TT.real_inverse:
        real = rng.standard_normal(shape)
        h = np.fft.rfftn(real, axes=tuple(range(1, len(case.lengths) + 1)))
        return (h / math.sqrt(math.prod(case.lengths))).astype(np.complex128)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape))


def _round_to_storage(x: np.ndarray, precision: F.Precision) -> np.ndarray:
    store = STORE[precision]
    if np.iscomplexobj(x):
        return x.real.astype(store).astype(np.float64) + 1j * x.imag.astype(store).astype(np.float64)
    return x.astype(store).astype(np.float64)


class _Buffers:
    """Poisoned device buffers holding one side's logical elements at their layout positions."""

    def __init__(self, precision: F.Precision, complex_: bool, planar: bool, idx: np.ndarray,
                 offsets: tuple[int, ...], cs: int):
        self.dtype = np.dtype(STORE[precision])
        self.planar, self.complex, self.idx, self.cs = planar, complex_, idx, cs
        self.offsets = offsets
        extent = int(idx.max()) + 1 if idx.size else 0
        nbuf = 2 if planar else 1
        self.size = [MARGIN + (offsets[j] + extent) * cs + MARGIN for j in range(nbuf)]
        self.sentinel = sentinel_value(self.dtype)
        self.host = [np.full(self.size[j], self.sentinel, dtype=self.dtype) for j in range(nbuf)]
        self.logical = [np.zeros(self.size[j], dtype=bool) for j in range(nbuf)]
        for j in range(nbuf):
            pos = MARGIN + (offsets[j] + idx) * cs
            self.logical[j][pos] = True
            if complex_ and not planar:
                self.logical[j][pos + 1] = True
        self.dev = [rm.to_device(h) for h in self.host]

    def positions(self, j: int) -> np.ndarray:
        return MARGIN + (self.offsets[j] + self.idx) * self.cs

    def write(self, x: np.ndarray) -> None:
        for j in range(len(self.host)):
            pos = self.positions(j)
            if not self.complex:
                self.host[j][pos] = x.real
            elif self.planar:
                self.host[j][pos] = (x.real if j == 0 else x.imag)
            else:
                self.host[j][pos] = x.real
                self.host[j][pos + 1] = x.imag
            self.dev[j].set(self.host[j])

    def pointers(self) -> list[int]:
        return [d.ptr + MARGIN * self.dtype.itemsize for d in self.dev]

    def read(self) -> tuple[np.ndarray, list[np.ndarray]]:
        raw = [d.get() for d in self.dev]
        if not self.complex:
            return raw[0][self.positions(0)].astype(np.float64), raw
        if self.planar:
            re, im = raw[0][self.positions(0)], raw[1][self.positions(1)]
        else:
            pos = self.positions(0)
            re, im = raw[0][pos], raw[0][pos + 1]
        return re.astype(np.float64) + 1j * im.astype(np.float64), raw

    def assert_padding_intact(self, raw: list[np.ndarray], what: str) -> None:
        bits = {2: np.uint16, 4: np.uint32, 8: np.uint64}[self.dtype.itemsize]
        want = np.array(self.sentinel, dtype=self.dtype).view(bits)
        for j, r in enumerate(raw):
            pad = ~self.logical[j]
            changed = np.flatnonzero(r.view(bits)[pad] != want)
            assert changed.size == 0, f"{what} buffer {j}: {changed.size} padding scalar(s) overwritten"


def run_case(case: Case, seed: int = 0, x: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, F.Plan]:
    """Execute ``case`` on poisoned buffers; returns (input as stored, output, plan).  Padding,
    gaps and margins of the output (and the whole input when out of place) must be intact."""
    rng = np.random.default_rng(seed)
    if x is None:
        x = make_input(case, rng)
    desc = F.plan_description_create()
    F.plan_description_set_data_layout(
        desc, case.in_type, case.out_type, case.in_offsets, case.out_offsets,
        len(case.in_strides or ()), case.in_strides, case.in_dist,
        len(case.out_strides or ()), case.out_strides, case.out_dist)
    if case.scale != 1.0:
        F.plan_description_set_scale_factor(desc, case.scale)
    placement = F.ResultPlacement.inplace if case.inplace else F.ResultPlacement.notinplace
    plan = F.plan_create(placement, case.tt, case.precision, len(case.lengths), case.lengths, case.batch, desc)
    F.plan_description_destroy(desc)
    spec = plan.spec
    inp, out = spec.inp, spec.out
    in_idx = _indices(spec.in_lengths, inp.strides, inp.distance, case.batch)
    out_idx = _indices(spec.out_lengths, out.strides, out.distance, case.batch)
    ib = _Buffers(case.precision, inp.complex, inp.planar, in_idx, inp.offsets, inp.cs)
    if case.inplace:
        # One allocation holds both layouts: the output positions are relative to the same pointer.
        ob = _Buffers.__new__(_Buffers)
        ob.__dict__.update(ib.__dict__)
        ob.complex, ob.planar, ob.idx, ob.cs, ob.offsets = out.complex, out.planar, out_idx, out.cs, out.offsets
        ob.logical = [np.zeros(s, dtype=bool) for s in ib.size]
        for j in range(len(ob.logical)):
            pos = MARGIN + (out.offsets[j] + out_idx) * out.cs
            assert pos.max() < ib.size[j], "test layout: in-place output does not fit the input buffer"
            ob.logical[j][pos] = True
            if out.complex and not out.planar:
                ob.logical[j][pos + 1] = True
            ob.logical[j] |= ib.logical[j]  # the input positions may hold anything afterwards
    else:
        ob = _Buffers(case.precision, out.complex, out.planar, out_idx, out.offsets, out.cs)
    ib.write(x)
    info = F.execution_info_create()
    if case.stream is not None:
        F.execution_info_set_stream(info, case.stream)
    F.execute(plan, ib.pointers(), None if case.inplace else ob.pointers(), info)
    rm.device_synchronize()
    y, raw = ob.read()
    ob.assert_padding_intact(raw, "output")
    if not case.inplace:
        _, raw_in = ib.read()
        if case.tt == TT.real_inverse:
            ib.assert_padding_intact(raw_in, "input")  # rocFFT lets real inverse transforms overwrite their input
        else:
            for j, r in enumerate(raw_in):
                assert np.array_equal(r.view(np.uint8), ib.host[j].view(np.uint8)), "input changed out of place"
    F.execution_info_destroy(info)
    return _round_to_storage(x, case.precision), y, plan


def check_error(case: Case, x: np.ndarray, y: np.ndarray, c: float = 10.0) -> None:
    """Relative L2 and L-infinity errors within ``c * eps * log2(N)`` (rocFFT's accuracy bound form)."""
    ref = reference(case, x)
    n = math.prod(case.lengths)
    eps = EPS[case.precision]
    bound = c * eps * max(1.0, math.log2(n))
    if case.precision == F.Precision.half:
        bound = c * eps  # dominated by rounding the result to half
    if ref.size == 0:
        return
    norm2 = np.linalg.norm(ref.ravel())
    norminf = np.abs(ref).max()
    if norm2 == 0:
        assert np.abs(y).max() == 0
        return
    l2 = np.linalg.norm((y - ref).ravel()) / norm2
    linf = np.abs(y - ref).max() / norminf
    assert l2 <= bound and linf <= bound, (
        f"{case.tt.name} {case.lengths} batch {case.batch} {case.precision.name}: "
        f"relative L2 {l2:.3e}, Linf {linf:.3e}, bound {bound:.3e}")


# --- explicit layouts --------------------------------------------------------------------------


@pytest.mark.parametrize("tt", list(TT), ids=lambda t: t.name)
@pytest.mark.parametrize("lengths", [(1,), (8,), (12,), (17,), (97,), (6, 5), (16, 9), (4, 3, 5), (7, 2, 6)],
                         ids=str)
@pytest.mark.parametrize("inplace", [False, True], ids=["outofplace", "inplace"])
def test_default_layouts(tt: TT, lengths: tuple[int, ...], inplace: bool) -> None:
    case = Case(tt, lengths, batch=3, inplace=inplace)
    x, y, _ = run_case(case)
    check_error(case, x, y)


def test_default_strides_and_distances_follow_rocfft() -> None:
    p = F.plan_create(F.ResultPlacement.inplace, TT.real_forward, F.Precision.double, 2, [6, 4], 2)
    assert p.spec.inp.strides == (1, 8) and p.spec.inp.distance == 32  # padded rows of 2 (6/2+1) reals
    assert p.spec.out.strides == (1, 4) and p.spec.out.distance == 16
    p = F.plan_create(F.ResultPlacement.inplace, TT.real_forward, F.Precision.double, 1, [7], 2)
    assert p.spec.inp.distance == 8 and p.spec.out.distance == 4
    p = F.plan_create(F.ResultPlacement.inplace, TT.real_inverse, F.Precision.single, 1, [7], 2)
    assert p.spec.out.distance == 8 and p.spec.inp.distance == 4
    assert p.spec.inp.array_type == AT.hermitian_interleaved and p.spec.out.array_type == AT.real
    p = F.plan_create(F.ResultPlacement.notinplace, TT.complex_forward, F.Precision.single, 3, [2, 3, 4], 5)
    assert p.spec.inp.strides == (1, 2, 6) and p.spec.inp.distance == 24
    assert p.spec.inp.array_type == AT.complex_interleaved


@pytest.mark.parametrize("tt", list(TT), ids=lambda t: t.name)
@pytest.mark.parametrize("precision", list(F.Precision), ids=lambda p: p.name)
def test_planar_strided_offsets(tt: TT, precision: F.Precision) -> None:
    real_in, real_out = tt == TT.real_forward, tt == TT.real_inverse
    in_type = AT.real if real_in else (AT.hermitian_planar if real_out else AT.complex_planar)
    out_type = AT.real if real_out else (AT.hermitian_planar if real_in else AT.complex_planar)
    lengths = (10, 3)
    half0 = lengths[0] // 2 + 1
    in_len0 = half0 if real_out else lengths[0]
    out_len0 = half0 if real_in else lengths[0]
    case = Case(tt, lengths, batch=2, precision=precision, in_type=in_type, out_type=out_type,
                in_strides=(2, 2 * in_len0 + 3), in_dist=3 * (2 * in_len0 + 3) + 5,
                out_strides=(3, 3 * out_len0 + 1), out_dist=3 * (3 * out_len0 + 1) + 2,
                in_offsets=(3, 5), out_offsets=(1, 4), scale=0.5)
    x, y, _ = run_case(case, seed=3)
    check_error(case, x, y)


def test_transposed_output_layout() -> None:
    # Batch innermost on the output: element stride = batch count, distance 1.
    case = Case(TT.complex_forward, (16,), batch=5, out_strides=(5,), out_dist=1, in_dist=20, in_strides=(1,))
    x, y, _ = run_case(case)
    check_error(case, x, y)


def test_inplace_with_overlapping_lines_goes_through_work() -> None:
    # In place, input lines stored transposed against the output lines: lines overlap each other.
    case = Case(TT.complex_forward, (8,), batch=8, inplace=True, in_strides=(8,), in_dist=1, out_strides=(1,),
                out_dist=8)
    x, y, plan = run_case(case)
    check_error(case, x, y)
    assert F.plan_get_work_buffer_size(plan) > 0
    case = Case(TT.real_inverse, (6,), batch=4, inplace=True, in_strides=(4,), in_dist=1, out_strides=(1,),
                out_dist=8)
    x, y, _ = run_case(case)
    check_error(case, x, y)


@settings(max_examples=examples(40))
@given(data=st.data())
def test_random_layouts(data: st.DataObject) -> None:
    """Hypothesis over transform type, lengths, batch, strides, distances, offsets, planar/interleaved."""
    tt = data.draw(st.sampled_from(list(TT)), label="tt")
    rank = data.draw(st.integers(1, 3), label="rank")
    maxn = {1: 40, 2: 12, 3: 6}[rank]
    lengths = tuple(data.draw(st.lists(st.integers(1, maxn), min_size=rank, max_size=rank), label="lengths"))
    batch = data.draw(st.integers(1, 4), label="batch")
    precision = data.draw(st.sampled_from([F.Precision.single, F.Precision.double]), label="precision")
    half0 = lengths[0] // 2 + 1
    in_len = (half0 if tt == TT.real_inverse else lengths[0], *lengths[1:])
    out_len = (half0 if tt == TT.real_forward else lengths[0], *lengths[1:])

    def layout(lens: tuple[int, ...], label: str) -> tuple[tuple[int, ...], int]:
        pads = data.draw(st.lists(st.integers(0, 3), min_size=rank + 1, max_size=rank + 1), label=label)
        first = data.draw(st.integers(1, 3), label=label + " stride0")
        strides = [first]
        for d in range(1, rank):
            strides.append(strides[-1] * lens[d - 1] + pads[d - 1] * first)
        dist = strides[-1] * lens[-1] + pads[-1]
        return tuple(strides), dist

    in_strides, in_dist = layout(in_len, "in")
    out_strides, out_dist = layout(out_len, "out")
    planar_in = data.draw(st.booleans(), label="planar in")
    planar_out = data.draw(st.booleans(), label="planar out")
    if tt in (TT.complex_forward, TT.complex_inverse):
        in_type = AT.complex_planar if planar_in else AT.complex_interleaved
        out_type = AT.complex_planar if planar_out else AT.complex_interleaved
    elif tt == TT.real_forward:
        in_type, out_type = AT.real, AT.hermitian_planar if planar_out else AT.hermitian_interleaved
    else:
        in_type, out_type = AT.hermitian_planar if planar_in else AT.hermitian_interleaved, AT.real
    in_offsets = tuple(data.draw(st.lists(st.integers(0, 4), min_size=2, max_size=2), label="in offsets"))
    out_offsets = tuple(data.draw(st.lists(st.integers(0, 4), min_size=2, max_size=2), label="out offsets"))
    case = Case(tt, lengths, batch, precision, False, in_type, out_type, in_strides, out_strides, in_dist, out_dist,
                in_offsets, out_offsets)
    x, y, _ = run_case(case, seed=data.draw(st.integers(0, 2**16), label="seed"))
    check_error(case, x, y)
