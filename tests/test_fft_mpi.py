"""rocmath.fft over MPI (plan_description_set_comm): each rank adds its own bricks; results bitwise
identical to the single-device plan, bytes exchanged equal to the plan's geometry; 1 rank in-process,
2 ranks (two devices each) or 3 and 4 ranks under mpiexec."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import rocmath as rm
import rocmath.fft as F
from rocmath.mpi import find_mpiexec

TT, P, PL, S = F.TransformType, F.Precision, F.ResultPlacement, F.Status


def _status(fn, *args) -> S:
    try:
        fn(*args)
    except F.RocfftError as exc:
        return exc.status
    return S.success


def _world():
    pytest.importorskip("mpi4py")
    from mpi4py import MPI

    if MPI.COMM_WORLD.Get_size() != 1:
        pytest.skip("runs as a single process")
    return MPI


# --- plan_description_set_comm ----------------------------------------------------------------------


def test_set_comm_statuses() -> None:
    MPI = _world()
    d = F.plan_description_create()
    assert _status(F.plan_description_set_comm, d, F.CommType.mpi, None) == S.invalid_arg_value
    assert _status(F.plan_description_set_comm, d, 1, None) == S.invalid_arg_value
    assert _status(F.plan_description_set_comm, d, 7, None) == S.invalid_arg_value  # null handle first, as rocFFT
    assert _status(F.plan_description_set_comm, d, 7, MPI.COMM_WORLD) == S.failure  # unknown type
    assert _status(F.plan_description_set_comm, d, "mpi", MPI.COMM_WORLD) == S.invalid_arg_value
    assert _status(F.plan_description_set_comm, d, F.CommType.mpi, object()) == S.failure
    assert _status(F.plan_description_set_comm, d, F.CommType.mpi, MPI.COMM_NULL) == S.failure
    assert _status(F.plan_description_set_comm, None, F.CommType.none, None) == S.invalid_arg_value
    F.plan_description_set_comm(d, F.CommType.mpi, MPI.COMM_WORLD)
    assert d.comm_type == F.CommType.mpi and d.comm is MPI.COMM_WORLD
    F.plan_description_set_comm(d, F.CommType.none, None)
    assert d.comm_type == F.CommType.none and d.comm is None


def test_one_rank_communicator_in_process(configure) -> None:
    MPI = _world()
    configure(count=2)
    tt, lengths, batch = TT.complex_forward, [8, 6, 4], 2
    rng = np.random.default_rng(5)
    x = rng.standard_normal((batch, 4, 6, 8)) + 1j * rng.standard_normal((batch, 4, 6, 8))
    rm.set_device(0)
    ref = rm.zeros(x.shape, np.complex128)
    F.execute(F.plan_create(PL.notinplace, tt, P.double, 3, lengths, batch, None), [rm.to_device(x)], [ref])
    d = F.plan_description_create()
    F.plan_description_set_comm(d, F.CommType.mpi, MPI.COMM_WORLD)
    # without a field on any rank: the ordinary plan
    assert not isinstance(F.plan_create(PL.notinplace, tt, P.double, 3, lengths, batch, d), F.FieldPlan)
    fin, fout = F.field_create(), F.field_create()
    ins, outs = [], []
    for dev, (lo, hi) in enumerate([(0, 2), (2, 4)]):
        F.field_add_brick(fin, F.brick_create([0, 0, lo, 0], [8, 6, hi, batch], [1, 8, 48, 48 * (hi - lo)], 4, dev))
        F.field_add_brick(fout, F.brick_create([0, 0, lo, 0], [8, 6, hi, batch], [1, 8, 48, 48 * (hi - lo)], 4, dev))
        rm.set_device(dev)
        ins.append(rm.to_device(np.ascontiguousarray(x[:, lo:hi])))
        outs.append(rm.zeros((batch, hi - lo, 6, 8), np.complex128))
    F.plan_description_add_infield(d, fin)
    # with a communicator both sides need a field
    assert _status(F.plan_create, PL.notinplace, tt, P.double, 3, lengths, batch, d) == S.failure
    F.plan_description_add_outfield(d, fout)
    rm.set_device(0)
    plan = F.plan_create(PL.notinplace, tt, P.double, 3, lengths, batch, d)
    assert plan.strategy == "slab" and plan.locations == ((0, 0), (0, 1)) and plan.comm_volume == 0
    F.execute(plan, ins, outs)
    got = np.concatenate([o.get() for o in outs], axis=1)
    assert got.tobytes() == ref.get().tobytes()
    assert plan.last_comm_bytes == 0 and plan.last_peer_bytes == plan.peer_volume > 0


# --- several ranks under mpiexec --------------------------------------------------------------------

SCRIPT = '''
import itertools

import numpy as np
from mpi4py import MPI

import rocmath as rm
import rocmath.fft as F

TT, P, PL = F.TransformType, F.Precision, F.ResultPlacement
comm = MPI.COMM_WORLD
me, size = comm.Get_rank(), comm.Get_size()
ndev = rm.get_device_count()
LOCS = [(r, d) for r in range(size) for d in range(ndev)]


def packed(lens):
    st = [1]
    for n in lens[:-1]:
        st.append(st[-1] * n)
    return st


def bounds(n, parts):
    """``parts`` ranges covering ``range(n)``, the first ones one longer (as field plans split)."""
    base, extra = divmod(n, parts)
    stops = np.cumsum([base + (i < extra) for i in range(parts)])
    return list(zip([0, *stops[:-1]], stops))


def cut(full, cuts, locs):
    """Bricks of ``full`` (rocFFT order, batch last): ``cuts`` = [(axis, parts)...], one per location."""
    rng = [bounds(full[axis], parts) for axis, parts in cuts]
    out = []
    for loc, combo in zip(locs, itertools.product(*rng)):
        lo, up = [0] * len(full), list(full)
        for (axis, _), (a, b) in zip(cuts, combo):
            lo[axis], up[axis] = int(a), int(b)
        out.append((lo, up, loc))
    return out


def data(tt, lengths, batch, prec):
    rng = np.random.default_rng(sum(lengths) + batch)
    real, cplx = (np.float64, np.complex128) if prec == P.double else (np.float32, np.complex64)
    shape = (batch, *lengths[::-1])
    if prec == P.half:  # complex half: interleaved pairs
        return rng.standard_normal((*shape, 2)).astype(np.float16)
    if tt == TT.real_forward:
        return rng.standard_normal(shape).astype(real)
    if tt == TT.real_inverse:
        return np.fft.rfftn(rng.standard_normal(shape), axes=range(1, len(lengths) + 1)).astype(cplx)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(cplx)


def sides(tt, lengths):
    half = [lengths[0] // 2 + 1, *lengths[1:]]
    return (half if tt == TT.real_inverse else list(lengths)), (half if tt == TT.real_forward else list(lengths))


def sl(lo, up):
    return tuple(slice(a, b) for a, b in zip(lo[::-1], up[::-1]))


def run(tt, lengths, batch, prec, in_b, out_b, scale=1.0, inplace=False):
    x = data(tt, lengths, batch, prec)
    inl, outl = sides(tt, lengths)
    odt = x.real.dtype if tt == TT.real_inverse else (np.complex64 if prec == P.single else np.complex128)
    pair = (2,) if prec == P.half else ()
    odt = np.float16 if prec == P.half else odt
    rm.set_device(0)
    d = F.plan_description_create()
    F.plan_description_set_scale_factor(d, scale)
    if me:  # rank 0 compiles the kernels first (from a cold cache), the others then load them
        comm.Barrier()
    ref_plan = F.plan_create(PL.notinplace, tt, prec, len(lengths), lengths, batch, d)
    ref = rm.DeviceArray((batch, *outl[::-1], *pair), odt)
    F.execute(ref_plan, [rm.to_device(x)], [ref])
    ref = ref.get()
    if not me:
        comm.Barrier()
    F.plan_description_set_comm(d, F.CommType.mpi, comm)
    rank = len(lengths)
    fin = F.field_create()
    ins = []
    for lo, up, (r, dev) in in_b:
        if r != me:
            continue
        F.field_add_brick(fin, F.brick_create(lo, up, packed([b - a for a, b in zip(lo, up)]), rank + 1, dev))
        rm.set_device(dev)
        ins.append((rm.to_device(np.ascontiguousarray(x[sl(lo, up)])), lo, up))
    if ins:
        F.plan_description_add_infield(d, fin)
    outs = []
    if not inplace:
        fout = F.field_create()
        for lo, up, (r, dev) in out_b:
            if r != me:
                continue
            lens = [b - a for a, b in zip(lo, up)]
            F.field_add_brick(fout, F.brick_create(lo, up, packed(lens), rank + 1, dev))
            rm.set_device(dev)
            outs.append((rm.zeros((*lens[::-1], *pair), odt), lo, up))
        if outs:
            F.plan_description_add_outfield(d, fout)
    rm.set_device(0)
    plan = F.plan_create(PL.inplace if inplace else PL.notinplace, tt, prec, rank, lengths, batch, d)
    F.execute(plan, [a for a, _, _ in ins], None if inplace else [a for a, _, _ in outs])
    if not inplace and tt != TT.real_inverse:  # the input bricks are left as they were
        for arr, lo, up in ins:
            assert arr.get().tobytes() == np.ascontiguousarray(x[sl(lo, up)]).tobytes()
    for arr, lo, up in (ins if inplace else outs):
        got = arr.get()
        want = ref[sl(lo, up)]
        assert got.dtype == want.dtype and got.tobytes() == np.ascontiguousarray(want).tobytes(), (tt, lo, up)
    mpi_bytes = comm.allreduce(plan.last_comm_bytes)
    peer_bytes = comm.allreduce(plan.last_peer_bytes)
    assert mpi_bytes == plan.comm_volume and peer_bytes == plan.peer_volume, (mpi_bytes, plan.comm_volume)
    return plan


# slab: one brick per rank (device 0), input cut along the outermost dimension, output along dimension 0
ranks0 = [(r, 0) for r in range(size)]
for tt, lengths, batch, prec in [(TT.complex_forward, [8, 6, 4], 2, P.double),
                                 (TT.real_forward, [8, 6], 3, P.single),
                                 (TT.real_inverse, [9, 4, 6], 1, P.double),
                                 (TT.complex_inverse, [67, 12], 1, P.single)]:
    inl, outl = sides(tt, lengths)
    r = len(lengths)
    plan = run(tt, lengths, batch, prec, cut([*inl, batch], [(r - 1, size)], ranks0),
               cut([*outl, batch], [(0, size)], ranks0), scale=0.5)
    assert plan.strategy == "slab", plan
    if tt == TT.complex_forward:
        # only the transpose crosses ranks: slab p of dimension 2 meets slab q != p of dimension 0
        n0, n1, n2 = lengths
        b2, b0 = bounds(n2, size), bounds(n0, size)
        model = sum((b2[p][1] - b2[p][0]) * (b0[q][1] - b0[q][0]) * n1 * batch * 16
                    for p in range(size) for q in range(size) if p != q)
        assert plan.comm_volume == model, (plan.comm_volume, model)
# pencils over every (rank, device): bricks cut along dimensions 1 and 2
for tt, lengths, batch, prec in [(TT.complex_forward, [6, 8, 6], 1, P.double),
                                 (TT.real_forward, [8, 6, 5], 2, P.single),
                                 (TT.real_inverse, [7, 6, 4], 1, P.double)]:
    inl, outl = sides(tt, lengths)
    p1 = 2 if len(LOCS) % 2 == 0 else 1
    plan = run(tt, lengths, batch, prec, cut([*inl, batch], [(1, p1), (2, len(LOCS) // p1)], LOCS),
               cut([*outl, batch], [(2, p1), (1, len(LOCS) // p1)], LOCS[::-1]), scale=1 / 3)
    # an odd count of locations cuts one dimension only: slabs then
    assert plan.strategy == ("pencil" if p1 > 1 else "slab") and len(plan.locations) == len(LOCS), plan
# in place, the batch split of 1-D transforms, everything gathered on one rank, half precision
run(TT.complex_forward, [6, 10], 1, P.double, cut([6, 10, 1], [(1, size)], ranks0), None, inplace=True)
plan = run(TT.complex_forward, [96], 5, P.double, cut([96, 5], [(1, size)], ranks0),
           cut([96, 5], [(0, size)], ranks0[::-1]))
assert plan.strategy == "batch"
plan = run(TT.real_forward, [16, 6], 2, P.double, cut([16, 6, 2], [(1, 1)], [(0, 0)]),
           cut([9, 6, 2], [(1, 1)], [(0, 0)]))
assert plan.strategy == "gather" and plan.comm_volume == 0
plan = run(TT.complex_forward, [8, 4], 2, P.double, cut([8, 4, 2], [(1, size)], ranks0),
           cut([8, 4, 2], [(2, 1)], [(size - 1, 0)]))
assert plan.strategy == "slab"
plan = run(TT.complex_forward, [8, 4], 2, P.half, cut([8, 4, 2], [(1, size)], ranks0),
           cut([8, 4, 2], [(0, size)], ranks0[::-1]))
assert plan.strategy == "gather" and plan.comm_volume > 0

# validation: a rank's brick on a device its process lacks fails plan_create on every rank
d = F.plan_description_create()
F.plan_description_set_comm(d, F.CommType.mpi, comm)
f = F.field_create()
lo, up = [0, me * 2, 0], [8, me * 2 + 2, 1]
F.field_add_brick(f, F.brick_create(lo, up, [1, 8, 16], 3, 7 if me == size - 1 else 0))
F.plan_description_add_infield(d, f)
g = F.field_create()
F.field_add_brick(g, F.brick_create(lo, up, [1, 8, 16], 3, 0))
F.plan_description_add_outfield(d, g)
try:
    F.plan_create(PL.notinplace, TT.complex_forward, P.double, 2, [8, 2 * size], 1, d)
except F.RocfftError as exc:
    assert exc.status == F.Status.failure
else:
    raise AssertionError("plan_create accepted a brick on a missing device")
# bricks of two ranks overlapping: every rank sees the whole field, and fails alike
d = F.plan_description_create()
F.plan_description_set_comm(d, F.CommType.mpi, comm)
f = F.field_create()
F.field_add_brick(f, F.brick_create([0, 0, 0], [8, 2, 1], [1, 8, 16], 3, 0))
F.plan_description_add_infield(d, f)
try:
    F.plan_create(PL.inplace, TT.complex_forward, P.double, 2, [8, 2 * size], 1, d)
except F.RocfftError as exc:
    assert exc.status == F.Status.failure and "overlaps" in str(exc)
else:
    raise AssertionError("plan_create accepted overlapping bricks")
if me == 0:
    print("fft mpi ok", size)
'''


def _run(tmp_path, ranks: int, devices: int) -> None:
    pytest.importorskip("mpi4py")
    exe = find_mpiexec()
    if exe is None:
        pytest.skip("no mpiexec")
    script = tmp_path / "fft_mpi_check.py"
    script.write_text(SCRIPT)
    # One thread per rank: the ranks share this machine's cores.
    env = dict(os.environ, NUMBA_NUM_THREADS="1", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
               ROCMATH_DEVICE_COUNT=str(devices))
    proc = subprocess.run([exe, "-n", str(ranks), sys.executable, str(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"fft mpi ok {ranks}" in proc.stdout


def test_fields_over_two_ranks_of_two_devices(tmp_path) -> None:
    _run(tmp_path, 2, 2)


@pytest.mark.slow
@pytest.mark.parametrize("ranks", [3, 4])
def test_fields_over_more_ranks(tmp_path, ranks) -> None:
    _run(tmp_path, ranks, 1)


def test_scaleout_bench_fft_worker(tmp_path) -> None:
    """The strong-scaling bench's FFT case: slabs over two ranks, bitwise, bytes as the model says."""
    import json

    pytest.importorskip("mpi4py")
    exe = find_mpiexec()
    if exe is None:
        pytest.skip("no mpiexec")
    env = dict(os.environ, NUMBA_NUM_THREADS="1", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
               ROCMATH_DEVICE_COUNT="1")
    proc = subprocess.run([exe, "-n", "2", sys.executable, "-m", "rocmath.bench.scaleout", "--fft-worker", "8", "6",
                           "4", "1"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    # only the transpose crosses ranks: each rank sends the other the half of its slab (2 x 6 x 8 elements)
    # that the other owns, 2 x 6 x 4 elements of 16 bytes each way
    assert out["bitwise"] and out["strategy"] == "slab"
    assert out["bytes"] == out["model_bytes"] == 2 * (2 * 6 * 4) * 16
