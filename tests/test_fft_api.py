"""rocmath.fft's rocFFT API: enums, statuses of bad arguments, work buffers, streams, plan cache,
plan printing and bitwise reproducibility."""

from __future__ import annotations

import hashlib
import pickle

import numpy as np
import pytest

import rocmath as rm
import rocmath.fft as F
from rocmath.fft import _kernels as K
from rocmath.fft._plan import PlanCache, expi, good_size, radices

TT, AT, P, PL = F.TransformType, F.ArrayType, F.Precision, F.ResultPlacement
S = F.Status


def test_enum_values_match_rocfft_h() -> None:
    assert [int(s) for s in S] == list(range(9))
    assert S.invalid_work_buffer == 8 and S.invalid_offset == 7
    assert (TT.complex_forward, TT.complex_inverse, TT.real_forward, TT.real_inverse) == (0, 1, 2, 3)
    assert (P.single, P.double, P.half) == (0, 1, 2)
    assert (PL.inplace, PL.notinplace) == (0, 1)
    assert [int(a) for a in AT] == list(range(6)) and AT.unset == 5 and AT.hermitian_planar == 4
    assert (F.CommType.none, F.CommType.mpi) == (0, 1)
    assert S.invalid_strides.to_string() == "rocfft_status_invalid_strides"


def test_exceptions_carry_status_and_pickle() -> None:
    e = F.RocfftInvalidStrides("bad", arg="in_strides", index=7)
    assert e.status == S.invalid_strides and "in_strides" in str(e)
    e2 = pickle.loads(pickle.dumps(e))
    assert type(e2) is F.RocfftInvalidStrides and e2.arg == "in_strides"
    assert F.error_for_status(S.invalid_distance) is F.RocfftInvalidDistance
    assert F.status_of(None) == S.success and F.status_of(KeyError()) == S.failure
    assert F.status_of(F.RocfftInvalidOffset("x")) == S.invalid_offset


def _status(fn, *args, **kwargs) -> S:
    try:
        fn(*args, **kwargs)
    except F.RocfftError as exc:
        return exc.status
    return S.success


def _desc(in_type=AT.unset, out_type=AT.unset, in_offsets=None, out_offsets=None, in_strides=None, in_dist=0,
          out_strides=None, out_dist=0) -> F.PlanDescription:
    d = F.plan_description_create()
    F.plan_description_set_data_layout(d, in_type, out_type, in_offsets, out_offsets, len(in_strides or ()),
                                       in_strides, in_dist, len(out_strides or ()), out_strides, out_dist)
    return d


@pytest.mark.parametrize("args, status", [
    ((7, TT.complex_forward, P.double, 1, [8], 1, None), S.invalid_arg_value),
    ((PL.inplace, 9, P.double, 1, [8], 1, None), S.invalid_arg_value),
    ((PL.inplace, TT.complex_forward, 3, 1, [8], 1, None), S.invalid_arg_value),
    ((PL.inplace, TT.complex_forward, P.double, 4, [8, 8, 8, 8], 1, None), S.invalid_dimensions),
    ((PL.inplace, TT.complex_forward, P.double, 0, [], 1, None), S.invalid_dimensions),
    ((PL.inplace, TT.complex_forward, P.double, 2, [8], 1, None), S.invalid_arg_value),
    ((PL.inplace, TT.complex_forward, P.double, 1, [0], 1, None), S.invalid_arg_value),
    ((PL.inplace, TT.complex_forward, P.double, 1, [8], -1, None), S.invalid_arg_value),
    ((PL.inplace, TT.complex_forward, P.double, 1, [8], 1, "desc"), S.invalid_arg_value),
], ids=["placement", "type", "precision", "dims4", "dims0", "too-few-lengths", "zero-length", "neg-batch",
        "not-a-desc"])
def test_plan_create_bad_arguments(args: tuple, status: S) -> None:
    assert _status(F.plan_create, *args) == status


@pytest.mark.parametrize("tt, placement, in_type, out_type", [
    (TT.complex_forward, PL.notinplace, AT.real, AT.complex_interleaved),
    (TT.complex_inverse, PL.notinplace, AT.complex_interleaved, AT.hermitian_interleaved),
    (TT.complex_forward, PL.inplace, AT.complex_interleaved, AT.complex_planar),
    (TT.real_forward, PL.notinplace, AT.complex_interleaved, AT.hermitian_interleaved),
    (TT.real_forward, PL.notinplace, AT.real, AT.real),
    (TT.real_forward, PL.inplace, AT.real, AT.hermitian_planar),
    (TT.real_inverse, PL.notinplace, AT.hermitian_interleaved, AT.complex_interleaved),
    (TT.real_inverse, PL.notinplace, AT.real, AT.real),
    (TT.real_inverse, PL.inplace, AT.hermitian_planar, AT.real),
])
def test_array_type_rules(tt: TT, placement: PL, in_type: AT, out_type: AT) -> None:
    d = _desc(in_type, out_type)
    assert _status(F.plan_create, placement, tt, P.single, 1, [16], 1, d) == S.invalid_array_type


@pytest.mark.parametrize("kwargs, status", [
    ({"in_strides": (1, 8)}, S.invalid_strides),
    ({"in_strides": (0,)}, S.invalid_strides),
    ({"out_strides": (-1,)}, S.invalid_strides),
    ({"in_dist": -3}, S.invalid_distance),
    ({"in_offsets": (-1,)}, S.invalid_offset),
    ({"out_strides": (1,), "out_dist": 4}, S.invalid_distance),  # batch entries overlap
], ids=["stride-count", "zero-stride", "negative-stride", "negative-distance", "negative-offset",
        "overlapping-batch"])
def test_layout_bad_arguments(kwargs: dict, status: S) -> None:
    d = _desc(**kwargs)
    assert _status(F.plan_create, PL.notinplace, TT.complex_forward, P.double, 1, [8], 3, d) == status


def test_overlapping_output_elements() -> None:
    d = _desc(out_strides=(1, 4), out_dist=64)  # rows of 8 written 4 apart
    assert _status(F.plan_create, PL.notinplace, TT.complex_forward, P.double, 2, [8, 3], 1, d) == \
        S.invalid_strides
    d = _desc(out_strides=(3,), out_dist=1)  # batch innermost, non-overlapping: fine
    assert _status(F.plan_create, PL.notinplace, TT.complex_forward, P.double, 1, [8], 3, d) == S.success


def test_description_setters() -> None:
    d = F.plan_description_create()
    assert _status(F.plan_description_set_scale_factor, d, float("nan")) == S.invalid_arg_value
    assert _status(F.plan_description_set_scale_factor, d, float("inf")) == S.invalid_arg_value
    F.plan_description_set_scale_factor(d, 0.25)
    assert d.scale_factor == 0.25
    assert _status(F.plan_description_set_data_layout, d, 9, AT.unset, None, None, 0, None, 0, 0, None, 0) == \
        S.invalid_arg_value
    assert _status(F.plan_description_set_data_layout, d, AT.complex_planar, AT.unset, [1], None, 0, None, 0, 0,
                   None, 0) == S.invalid_arg_value  # planar needs two offsets
    assert _status(F.plan_description_set_comm, d, F.CommType.mpi, None) == S.invalid_arg_value
    assert _status(F.plan_description_set_comm, d, F.CommType.mpi, object()) == S.failure
    F.plan_description_set_comm(d, F.CommType.none, None)
    F.plan_description_destroy(d)
    assert _status(F.plan_description_set_scale_factor, d, 1.0) == S.invalid_arg_value
    F.plan_description_destroy(None)


def test_execute_bad_arguments() -> None:
    plan = F.plan_create(PL.notinplace, TT.complex_forward, P.double, 1, [8], 1)
    x = rm.zeros(8, np.complex128)
    y = rm.zeros(8, np.complex128)
    assert _status(F.execute, plan, [x], None) == S.invalid_arg_value  # out of place needs an output
    assert _status(F.execute, plan, [0], [y]) == S.invalid_arg_value
    assert _status(F.execute, plan, [], [y]) == S.invalid_arg_value
    assert _status(F.execute, None, [x], [y]) == S.failure
    pplan = F.plan_create(PL.notinplace, TT.complex_forward, P.double, 1, [8], 1,
                          _desc(AT.complex_planar, AT.complex_interleaved))
    assert _status(F.execute, pplan, [x], [y]) == S.invalid_arg_value  # planar needs two
    F.plan_destroy(plan)
    assert _status(F.execute, plan, [x], [y]) == S.failure
    assert _status(F.plan_get_work_buffer_size, plan) == S.failure
    small = rm.zeros(4, np.complex128)
    plan = F.plan_create(PL.notinplace, TT.complex_forward, P.double, 1, [8], 1)
    with pytest.raises(rm.MemoryAccessFault):
        F.execute(plan, [small], [y])
    rm.device_synchronize()


def test_work_buffer_rules() -> None:
    # Multi-dimensional out-of-place plans keep their intermediate in the output: no work memory.
    assert F.plan_get_work_buffer_size(F.plan_create(PL.notinplace, TT.complex_forward, P.double, 2, [8, 8], 2)) == 0
    # In place with lines that overlap other lines: through a work buffer.
    plan = F.plan_create(PL.inplace, TT.complex_forward, P.double, 1, [8], 8,
                         _desc(in_strides=(8,), in_dist=1, out_strides=(1,), out_dist=8))
    need = F.plan_get_work_buffer_size(plan)
    assert need == 2 * 8 * 8 * 8  # planar doubles for the whole batch
    info = F.execution_info_create()
    assert _status(F.execution_info_set_work_buffer, info, 0, need) == S.invalid_work_buffer
    assert _status(F.execution_info_set_work_buffer, info, None, need) == S.invalid_work_buffer
    host = np.arange(64, dtype=np.complex128)
    x = rm.to_device(host)
    small = rm.empty(need // 2, np.uint8)
    F.execution_info_set_work_buffer(info, small, need // 2)
    assert _status(F.execute, plan, [x], None, info) == S.invalid_work_buffer
    big = rm.empty(2 * need, np.uint8)
    F.execution_info_set_work_buffer(info, big.ptr, 2 * need)
    F.execute(plan, [x], None, info)
    rm.device_synchronize()
    ref = np.fft.fft(host.reshape(8, 8).T, axis=1)  # input element j of entry b at 8 j + b
    np.testing.assert_allclose(x.get().reshape(8, 8), ref, atol=1e-11)
    # Bluestein keeps its convolution buffers (4 of M = 8640 rows per chunk group) in the work buffer.
    one_d = F.plan_create(PL.notinplace, TT.complex_forward, P.double, 1, [4099], 1)
    assert F.plan_get_work_buffer_size(one_d) == 4 * 8640 * 8


def test_empty_batch_is_a_no_op() -> None:
    plan = F.plan_create(PL.notinplace, TT.complex_forward, P.double, 1, [8], 0)
    x = rm.zeros(8, np.complex128)
    F.execute(plan, [x], [x])
    rm.device_synchronize()


def test_setup_cleanup_version() -> None:
    F.setup()
    assert isinstance(F.get_version_string(), str)
    F.plan_create(PL.notinplace, TT.complex_forward, P.double, 1, [64], 1)
    F.cleanup()
    assert len(F.get_plan_cache()) == 0
    F.setup()


def test_plan_get_print(capsys: pytest.CaptureFixture[str]) -> None:
    plan = F.plan_create(PL.notinplace, TT.real_forward, P.single, 2, [4099, 6], 3)
    text = F.plan_get_print(plan)
    out = capsys.readouterr().out
    assert text in out
    assert "real_forward" in text and "Bluestein 4099" in text and "dimension 1" in text
    assert "Stockham length 6" in text and "real-to-complex" in text


def test_plan_cache_bounded_and_shared() -> None:
    cache = F.get_plan_cache()
    cache.clear()
    before = cache.stats()
    a = F.plan_create(PL.notinplace, TT.complex_forward, P.double, 1, [1000], 4)
    b = F.plan_create(PL.notinplace, TT.complex_forward, P.double, 1, [1000], 4)
    assert a is not b and a.exec_plan is b.exec_plan  # built once
    s = cache.stats()
    assert s.hits == before.hits + 1 and s.misses == before.misses + 1 and s.plans == 1 and s.bytes > 0
    F.plan_destroy(a)
    assert b.exec_plan is not None
    small = PlanCache(max_plans=2, max_bytes=1 << 30)
    specs = [F.plan_create(PL.notinplace, TT.complex_forward, P.double, 1, [n], 1).spec for n in (8, 16, 32)]
    for sp in specs:
        small.get(sp)
    assert len(small) == 2 and specs[0] not in small and small.stats().evictions == 1
    small.set_limits(max_bytes=1)
    assert len(small) == 0
    off = PlanCache(max_plans=0)
    off.get(specs[0])
    assert len(off) == 0


def test_one_plan_on_several_streams() -> None:
    plan = F.plan_create(PL.notinplace, TT.complex_forward, P.double, 2, [64, 32], 8)  # needs work memory
    rng = np.random.default_rng(1)
    streams = [rm.Stream() for _ in range(3)]
    xs = [rng.standard_normal((8, 32, 64)) + 1j * rng.standard_normal((8, 32, 64)) for _ in streams]
    outs = []
    for s, x in zip(streams, xs, strict=True):
        info = F.execution_info_create()
        F.execution_info_set_stream(info, s)
        dx = rm.to_device(x, s)
        dy = rm.empty(x.shape, np.complex128)
        for _ in range(3):
            F.execute(plan, [dx], [dy], info)
        outs.append(dy)
    for s, x, dy in zip(streams, xs, outs, strict=True):
        s.synchronize()
        np.testing.assert_allclose(dy.get(), np.fft.fft2(x), atol=1e-10)
        s.destroy()


def test_bitwise_reproducible() -> None:
    rng = np.random.default_rng(7)
    x = rng.standard_normal((64, 1000)) + 1j * rng.standard_normal((64, 1000))
    digests = set()
    for _ in range(2):
        dx = rm.to_device(x)
        with rm.Stream() as s:
            dy = F.fft(dx)
            s.synchronize()
        digests.add(hashlib.sha256(dy.get().tobytes()).hexdigest())
    # The kernel split across any number of threads.
    p = F.plan_create(PL.notinplace, TT.complex_forward, P.double, 1, [1000], 64).exec_plan.passes[0]
    xs = x.view(np.float64).ravel()
    for threads in (1, 2, 7):
        ys = np.empty_like(xs)
        K.fft_pass(p.io, p.sbase, p.dbase, xs, xs, ys, ys, p.program.ip, p.program.tw, 1.0, threads, np.empty(0))
        digests.add(hashlib.sha256(ys.tobytes()).hexdigest())
    assert len(digests) == 1
    # The same values whatever the chunking (lanes) of the kernel.
    plan = F.plan_create(PL.notinplace, TT.complex_forward, P.double, 1, [1000], 64,
                         _desc(in_strides=(64,), in_dist=1))
    dxt = rm.to_device(np.ascontiguousarray(x.T))
    dy2 = rm.empty((64, 1000), np.complex128)
    F.execute(plan, [dxt], [dy2])
    rm.device_synchronize()
    assert plan.exec_plan.passes[0].io[K.IO_LANES] > 1
    assert hashlib.sha256(dy2.get().tobytes()).hexdigest() in digests


def test_twiddles_and_sizes() -> None:
    k = np.arange(16)
    w = expi(k, 16)
    np.testing.assert_allclose(w, np.exp(-2j * np.pi * k / 16), atol=1e-16)
    assert w[4] == -1j and w[8] == -1 and w[12] == 1j and w[0] == 1  # exact quarter turns
    big = expi(np.array([10**9 + 7]), 10**9 + 9)
    np.testing.assert_allclose(big, np.exp(-2j * np.pi * (-2) / (10**9 + 9)), atol=1e-15)
    assert radices(4096) == [8, 8, 8, 8] and radices(16) == [4, 4] and radices(2) == [2]
    assert radices(1000) == [8, 5, 5, 5] and radices(4099) is None and radices(61 * 59) == [59, 61]
    assert good_size(8197) == 8640 and good_size(1) == 1 and good_size(17) == 18
