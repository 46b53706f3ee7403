"""hip.rccl: RCCL's communicators, collectives and point-to-point transfers over simulated devices.

References are NumPy computations of the documented semantics (rank-order reductions in the element
type, integer results exact); statuses are RCCL 6.2's, in its order of checks.
"""

from __future__ import annotations

import ctypes
import threading
import time

import numpy as np
import pytest

import rocmath as rm
from rocmath.hip import hip, rccl
from rocmath.precision import from_bfloat16, to_bfloat16

R = rccl.ncclResult_t
T = rccl.ncclDataType_t
OP = rccl.ncclRedOp_t
K = hip.hipMemcpyKind

#: Element types with their NumPy storage (bfloat16 as its bits).
TYPES = {
    T.ncclInt8: np.int8, T.ncclUint8: np.uint8, T.ncclInt32: np.int32, T.ncclUint32: np.uint32,
    T.ncclInt64: np.int64, T.ncclUint64: np.uint64, T.ncclFloat16: np.float16, T.ncclFloat32: np.float32,
    T.ncclFloat64: np.float64, T.ncclBfloat16: np.uint16,
}


def ok(result):
    status, rest = result[0], result[1:]
    assert status == R.ncclSuccess, f"{status!r}: {rccl.ncclGetLastError(None)[0]}"
    return rest[0] if len(rest) == 1 else rest


def hok(result):
    assert result[0] == hip.hipError_t.hipSuccess, result[0]
    return result[1] if len(result) == 2 else result[1:]


class Ranks:
    """Per-device buffers of a test, freed at its end."""

    def __init__(self):
        self.ptrs: list[tuple[int, object]] = []

    def put(self, device, array):
        hok(hip.hipSetDevice(device))
        d = hok(hip.hipMalloc(max(array.nbytes, 1)))
        if array.nbytes:
            hok(hip.hipMemcpy(d, np.ascontiguousarray(array), array.nbytes, K.hipMemcpyHostToDevice))
        self.ptrs.append((device, d))
        return d

    def get(self, device, d, like):
        out = np.empty_like(like)
        hok(hip.hipSetDevice(device))
        hok(hip.hipMemcpy(out, d, out.nbytes, K.hipMemcpyDeviceToHost))
        return out

    def free(self):
        for device, d in self.ptrs:
            hip.hipSetDevice(device)
            hip.hipFree(d)
        hip.hipSetDevice(0)


@pytest.fixture
def bufs():
    r = Ranks()
    yield r
    r.free()


def make_comms(n):
    comms = ok(rccl.ncclCommInitAll(n, None))
    assert [ok(rccl.ncclCommUserRank(c)) for c in comms] == list(range(n))
    return comms


@pytest.fixture
def world(configure):
    """Three devices and a communicator clique over them (destroyed after the test)."""
    configure(count=3)
    comms = make_comms(3)
    yield comms
    for c in comms:  # (abort: a failed test's pending collective cannot hang the teardown)
        ok(rccl.ncclCommAbort(c))


def sync(n):
    for d in range(n):
        hok(hip.hipSetDevice(d))
        hok(hip.hipDeviceSynchronize())
    hip.hipSetDevice(0)


def grouped(calls):
    ok(rccl.ncclGroupStart())
    for call in calls:
        ok(call())
    ok(rccl.ncclGroupEnd())


def inputs(dtype, nranks, count, seed=0, small=False):
    rng = np.random.default_rng(seed)
    if dtype is np.uint16:  # bfloat16: small integers are exact
        return [to_bfloat16(rng.integers(-6 if not small else 1, 7, count).astype(np.float32)) for _ in range(nranks)]
    if np.dtype(dtype).kind == "f":
        return [rng.integers(-6 if not small else 1, 7, count).astype(dtype) for _ in range(nranks)]
    info = np.iinfo(dtype)
    lo, hi = (max(info.min, -100), min(info.max, 100)) if not small else (0, 7)
    return [rng.integers(lo, hi, count, endpoint=True).astype(dtype) for _ in range(nranks)]


def reference(op, dtype, xs):
    """Rank-order reduction in the element type, computed independently (wide integers wrapped back,
    bfloat16 through float32)."""
    n = len(xs)
    if dtype is np.uint16:
        vals = [from_bfloat16(x) for x in xs]
        if op == OP.ncclAvg:
            inv = from_bfloat16(to_bfloat16(np.float32(1 / n)))
            vals = [from_bfloat16(to_bfloat16(v * inv)) for v in vals]
        acc = vals[0]
        for v in vals[1:]:
            f = {OP.ncclSum: np.add, OP.ncclAvg: np.add, OP.ncclProd: np.multiply, OP.ncclMax: np.fmax,
                 OP.ncclMin: np.fmin}[op]
            acc = from_bfloat16(to_bfloat16(f(acc, v)))
        return to_bfloat16(acc)
    if np.dtype(dtype).kind in "iu":
        bits = np.dtype(dtype).itemsize * 8
        wide = [[int(v) for v in x] for x in xs]
        if op in (OP.ncclSum, OP.ncclAvg):
            tot = [sum(col) for col in zip(*wide, strict=True)]
        elif op == OP.ncclProd:
            tot = [int(np.prod(np.array(col, dtype=object))) for col in zip(*wide, strict=True)]
        else:
            tot = [(max if op == OP.ncclMax else min)(col) for col in zip(*wide, strict=True)]
        tot = [t % (1 << bits) for t in tot]
        signed = np.dtype(dtype).kind == "i"
        tot = [t - (1 << bits) if signed and t >= 1 << (bits - 1) else t for t in tot]
        if op == OP.ncclAvg:
            tot = [int(t / n) if abs(t) < 1 << 52 else (abs(t) // n) * (1 if t >= 0 else -1) for t in tot]
        return np.array(tot, dtype=object).astype(dtype)
    with np.errstate(all="ignore"):
        if op == OP.ncclAvg:
            inv = dtype(np.float32(1 / n)) if dtype is not np.float64 else np.float64(1 / n)
            xs = [(x * inv).astype(dtype) for x in xs]
        f = {OP.ncclSum: np.add, OP.ncclAvg: np.add, OP.ncclProd: np.multiply, OP.ncclMax: np.fmax,
             OP.ncclMin: np.fmin}[op]
        acc = xs[0]
        for x in xs[1:]:
            acc = f(acc, x).astype(dtype)
        return acc


# --- module surface --------------------------------------------------------------------------------------


def test_enums_constants_and_surface():
    assert (OP.ncclSum, OP.ncclProd, OP.ncclMax, OP.ncclMin, OP.ncclAvg, OP.ncclNumOps) == (0, 1, 2, 3, 4, 5)
    assert OP.ncclMaxRedOp == 0x7FFFFFFF and rccl.ncclRedOp_dummy_t.ncclNumOps_dummy == 5
    assert [int(getattr(T, n)) for n in ("ncclInt8", "ncclChar", "ncclUint8", "ncclInt32", "ncclInt", "ncclUint32",
                                          "ncclInt64", "ncclUint64", "ncclFloat16", "ncclHalf", "ncclFloat32",
                                          "ncclFloat", "ncclFloat64", "ncclDouble", "ncclBfloat16", "ncclFp8E4M3",
                                          "ncclFp8E5M2", "ncclNumTypes")] == [0, 0, 1, 2, 2, 3, 4, 5, 6, 6, 7, 7, 8, 8,
                                                                              9, 10, 11, 12]
    assert [int(m) for m in R] == list(range(9))
    assert rccl.ncclScalarResidence_t.ncclScalarHostImmediate == 1 and R.ctypes_type() is ctypes.c_uint
    assert (rccl.NCCL_MAJOR, rccl.NCCL_MINOR, rccl.NCCL_PATCH, rccl.NCCL_VERSION_CODE) == (2, 20, 5, 22005)
    assert rccl.NCCL_UNIQUE_ID_BYTES == 128 and rccl.NCCL_SUFFIX == b"" and rccl.RCCL_ALLTOALLV == 1
    names = [n for n in rccl.__all__ if n.startswith("nccl") and callable(getattr(rccl, n))
             and not isinstance(getattr(rccl, n), type)]
    assert len(names) == 35 and all(f"p{n}" in rccl.__all__ for n in names)
    assert rccl.ncclComm_t is rccl.ncclComm and rccl.ncclConfig_t is rccl.ncclConfig_v21700
    assert ok(rccl.ncclGetVersion()) == 22005 == ok(rccl.pncclGetVersion())
    assert str(rccl.ncclGetErrorString(R.ncclInvalidUsage)[0]).startswith("invalid usage")
    assert str(rccl.ncclGetErrorString(R.ncclSuccess)[0]) == "no error"
    with pytest.raises(TypeError):
        rccl.ncclGetErrorString(4)


def test_unique_id_and_config_structs():
    uid = rccl.ncclUniqueId()
    assert uid.c_sizeof() == 128 and uid.internal == b"" and uid.PROPERTIES() == ["internal"]
    ok(rccl.ncclGetUniqueId(uid))
    other = rccl.ncclUniqueId()
    ok(rccl.ncclGetUniqueId(other))
    assert uid.internal and uid.internal != other.internal
    raw = bytearray(128)
    ok(rccl.ncclGetUniqueId(raw))
    assert any(raw)
    assert rccl.ncclGetUniqueId(None)[0] == R.ncclInvalidArgument
    cfg = rccl.ncclConfig_t()
    assert cfg.c_sizeof() == 48 and (cfg.size, cfg.magic, cfg.blocking) == (0, 0, 0)
    cfg2 = rccl.ncclConfig_t(size=48, magic=0xCAFEBEEF)
    assert cfg2.magic == 0xCAFEBEEF and cfg2[0] == 48 and "netName" in cfg2
    with pytest.raises(KeyError):
        rccl.ncclConfig_t(nope=1)


def test_config_struct_has_the_runtimes_layout_and_keeps_its_net_name():
    import ctypes

    import rocmath.collectives as coll

    ours, runtimes = rccl.ncclConfig_t._c, coll._ConfigStruct
    assert ctypes.sizeof(ours) == ctypes.sizeof(runtimes)
    assert [(n, getattr(ours, n).offset) for n, _ in ours._fields_] == \
        [(n, getattr(runtimes, n).offset) for n, _ in runtimes._fields_]
    cfg = rccl.ncclConfig_t(netName=bytearray(b"IB"))
    assert cfg.netName == b"IB" and runtimes.from_address(int(cfg)).netName == b"IB"
    cfg.netName = None
    assert cfg.netName is None


# --- collectives against NumPy ----------------------------------------------------------------------------


@pytest.mark.parametrize("op", [OP.ncclSum, OP.ncclProd, OP.ncclMax, OP.ncclMin, OP.ncclAvg], ids=lambda o: o.name)
def test_allreduce_every_type(world, bufs, op):
    count = 7
    for k, (dt, np_t) in enumerate(TYPES.items()):
        xs = inputs(np_t, 3, count, seed=k, small=op == OP.ncclProd)
        send = [bufs.put(r, x) for r, x in enumerate(xs)]
        recv = [bufs.put(r, np.zeros_like(x)) for r, x in enumerate(xs)]
        grouped([lambda s=s, d=d, r=r, dt=dt: rccl.ncclAllReduce(s, d, count, dt, op, world[r], None)
                 for r, (s, d) in enumerate(zip(send, recv, strict=True))])
        sync(3)
        want = reference(op, np_t, xs)
        for r in range(3):
            got = bufs.get(r, recv[r], xs[r])
            assert got.tobytes() == np.asarray(want, dtype=np_t).tobytes(), (dt.name, r, got, want)


def test_float_reductions_ignore_nans_and_are_reproducible(world, bufs):
    rng = np.random.default_rng(5)
    xs = [rng.standard_normal(1000).astype(np.float32) for _ in range(3)]
    xs[1][3] = np.nan
    d = [bufs.put(r, x) for r, x in enumerate(xs)]
    out = [bufs.put(r, np.zeros(1000, np.float32)) for r in range(3)]
    results = []
    for op in (OP.ncclMax, OP.ncclSum, OP.ncclSum):
        grouped([lambda r=r, op=op: rccl.ncclAllReduce(d[r], out[r], 1000, T.ncclFloat32, op, world[r], None)
                 for r in range(3)])
        sync(3)
        results.append([bufs.get(r, out[r], xs[0]) for r in range(3)])
    assert results[0][0][3] == max(xs[0][3], xs[2][3])  # fmax: the NaN is ignored
    np.testing.assert_array_equal(results[0][0], np.fmax(np.fmax(xs[0], xs[1]), xs[2]))
    ref = (xs[0] + xs[1]) + xs[2]  # rank order, float32
    for r in range(3):
        assert results[1][r].tobytes() == results[2][r].tobytes() == ref.tobytes()


def test_broadcast_reduce_allgather_reducescatter(world, bufs):
    n, count = 3, 5
    xs = [np.arange(count * n, dtype=np.int32) * (r + 1) + r for r in range(n)]
    big = [bufs.put(r, x) for r, x in enumerate(xs)]
    small = [bufs.put(r, np.full(count, -1, np.int32)) for r in range(n)]
    gath = [bufs.put(r, np.full(count * n, -1, np.int32)) for r in range(n)]
    # Broadcast from root 2 (non-roots pass a NULL sendbuff), Reduce (max) to root 1 (NULL recvbuff elsewhere).
    grouped([lambda r=r: rccl.ncclBroadcast(big[r] if r == 2 else None, small[r], count, T.ncclInt32, 2, world[r],
                                            None) for r in range(n)])
    sync(n)
    for r in range(n):
        np.testing.assert_array_equal(bufs.get(r, small[r], xs[0][:count]), xs[2][:count])
    grouped([lambda r=r: rccl.ncclReduce(big[r], small[r] if r == 1 else None, count, T.ncclInt32, OP.ncclMax, 1,
                                         world[r], None) for r in range(n)])
    sync(n)
    np.testing.assert_array_equal(bufs.get(1, small[1], xs[0][:count]), np.max([x[:count] for x in xs], axis=0))
    np.testing.assert_array_equal(bufs.get(0, small[0], xs[0][:count]), xs[2][:count])  # untouched since the bcast
    # AllGather: rank r's block at r*count; ReduceScatter: block r of the sum.
    grouped([lambda r=r: rccl.ncclAllGather(big[r], gath[r], count, T.ncclInt32, world[r], None) for r in range(n)])
    sync(n)
    for r in range(n):
        np.testing.assert_array_equal(bufs.get(r, gath[r], xs[0]), np.concatenate([x[:count] for x in xs]))
    grouped([lambda r=r: rccl.ncclReduceScatter(big[r], small[r], count, T.ncclInt32, OP.ncclSum, world[r], None)
             for r in range(n)])
    sync(n)
    total = np.sum(xs, axis=0)
    for r in range(n):
        np.testing.assert_array_equal(bufs.get(r, small[r], xs[0][:count]), total[r * count:(r + 1) * count])


def test_in_place_variants(world, bufs):
    n, count = 3, 4
    xs = [np.arange(count * n, dtype=np.float64) + 100 * r for r in range(n)]
    d = [bufs.put(r, x) for r, x in enumerate(xs)]
    # AllReduce with sendbuff == recvbuff.
    grouped([lambda r=r: rccl.ncclAllReduce(d[r], d[r], count * n, T.ncclFloat64, OP.ncclSum, world[r], None)
             for r in range(n)])
    sync(n)
    total = xs[0] + xs[1] + xs[2]
    for r in range(n):
        np.testing.assert_array_equal(bufs.get(r, d[r], xs[0]), total)
    # AllGather in place: sendbuff = recvbuff + rank*sendcount.
    blocks = [np.full(count * n, -1.0) for _ in range(n)]
    for r in range(n):
        blocks[r][r * count:(r + 1) * count] = r + 0.5
    g = [bufs.put(r, b) for r, b in enumerate(blocks)]
    grouped([lambda r=r: rccl.ncclAllGather(g[r][r * count * 8:], g[r], count, T.ncclFloat64, world[r], None)
             for r in range(n)])
    sync(n)
    for r in range(n):
        np.testing.assert_array_equal(bufs.get(r, g[r], blocks[0]), np.repeat([0.5, 1.5, 2.5], count))
    # ReduceScatter in place: recvbuff = sendbuff + rank*recvcount; legacy ncclBcast is in place.
    grouped([lambda r=r: rccl.ncclReduceScatter(d[r], d[r][r * count * 8:], count, T.ncclFloat64, OP.ncclMax,
                                                world[r], None) for r in range(n)])
    sync(n)
    for r in range(n):
        got = bufs.get(r, d[r], xs[0])
        np.testing.assert_array_equal(got[r * count:(r + 1) * count], total[r * count:(r + 1) * count])
    grouped([lambda r=r: rccl.ncclBcast(d[r], count * n, T.ncclFloat64, 0, world[r], None) for r in range(n)])
    sync(n)
    root = bufs.get(0, d[0], xs[0])
    for r in range(n):
        np.testing.assert_array_equal(bufs.get(r, d[r], xs[0]), root)


def test_send_recv_ring_and_self(world, bufs):
    n, count = 3, 6
    xs = [np.arange(count, dtype=np.int64) + 10 * r for r in range(n)]
    src = [bufs.put(r, x) for r, x in enumerate(xs)]
    dst = [bufs.put(r, np.zeros(count, np.int64)) for r in range(n)]
    # Everyone sends right and receives from the left, all at once: only a group lets this progress.
    grouped([f for r in range(n) for f in (
        lambda r=r: rccl.ncclSend(src[r], count, T.ncclInt64, (r + 1) % n, world[r], None),
        lambda r=r: rccl.ncclRecv(dst[r], count, T.ncclInt64, (r - 1) % n, world[r], None))])
    sync(n)
    for r in range(n):
        np.testing.assert_array_equal(bufs.get(r, dst[r], xs[0]), xs[(r - 1) % n])
    # A rank may send to itself; an in-place exchange reads before it writes.
    grouped([lambda: rccl.ncclSend(src[1], count, T.ncclInt64, 1, world[1], None),
             lambda: rccl.ncclRecv(src[1], count, T.ncclInt64, 1, world[1], None)])
    sync(n)
    np.testing.assert_array_equal(bufs.get(1, src[1], xs[0]), xs[1])


def test_gather_scatter_alltoall_alltoallv(world, bufs):
    n, c = 3, 2
    xs = [np.arange(c * n, dtype=np.float32) + 10 * r for r in range(n)]
    s = [bufs.put(r, x) for r, x in enumerate(xs)]
    o = [bufs.put(r, np.full(c * n, -1, np.float32)) for r in range(n)]
    grouped([lambda r=r: rccl.ncclGather(s[r], o[r] if r == 1 else None, c, T.ncclFloat32, 1, world[r], None)
             for r in range(n)])
    sync(n)
    np.testing.assert_array_equal(bufs.get(1, o[1], xs[0]), np.concatenate([x[:c] for x in xs]))
    grouped([lambda r=r: rccl.ncclScatter(s[r], o[r], c, T.ncclFloat32, 2, world[r], None) for r in range(n)])
    sync(n)
    for r in range(n):
        np.testing.assert_array_equal(bufs.get(r, o[r], xs[0])[:c], xs[2][r * c:(r + 1) * c])
    grouped([lambda r=r: rccl.ncclAllToAll(s[r], o[r], c, T.ncclFloat32, world[r], None) for r in range(n)])
    sync(n)
    for r in range(n):
        np.testing.assert_array_equal(bufs.get(r, o[r], xs[0]), np.concatenate([xs[j][r * c:(r + 1) * c]
                                                                                 for j in range(n)]))
    # AllToAllv: rank i sends i+j+1 elements to rank j, from offset j, received back to back.
    counts = [[i + j + 1 for j in range(n)] for i in range(n)]
    vs = [np.arange(20, dtype=np.int32) * (i + 1) for i in range(n)]
    vsrc = [bufs.put(i, v) for i, v in enumerate(vs)]
    vdst = [bufs.put(i, np.zeros(20, np.int32)) for i in range(n)]

    def a2av(i):
        recvcounts = [counts[j][i] for j in range(n)]
        rdispls = list(np.cumsum([0, *recvcounts[:-1]]))
        sdispls = np.arange(n, dtype=np.uint64)  # a host array works too
        return rccl.ncclAllToAllv(vsrc[i], counts[i], sdispls, vdst[i], recvcounts, rdispls, T.ncclInt32, world[i],
                                  None)

    grouped([lambda i=i: a2av(i) for i in range(n)])
    sync(n)
    for i in range(n):
        want = np.concatenate([vs[j][i:i + counts[j][i]] for j in range(n)])
        np.testing.assert_array_equal(bufs.get(i, vdst[i], vs[0])[:want.size], want)


# --- groups and streams ---------------------------------------------------------------------------------


def test_group_semantics(world, bufs):
    n = 3
    xs = [np.full(4, r + 1, np.int32) for r in range(n)]
    d = [bufs.put(r, x) for r, x in enumerate(xs)]
    assert rccl.ncclGroupEnd()[0] == R.ncclInvalidUsage  # not in a group
    ok(rccl.ncclGroupStart())
    ok(rccl.ncclGroupStart())  # nested: only the outermost end launches
    for r in range(n):
        ok(rccl.ncclAllReduce(d[r], d[r], 4, T.ncclInt32, OP.ncclSum, world[r], None))
    ok(rccl.ncclGroupEnd())
    sync(n)
    assert (bufs.get(0, d[0], xs[0]) == 1).all()  # nothing ran yet
    ok(rccl.ncclGroupEnd())
    sync(n)
    assert all((bufs.get(r, d[r], xs[0]) == 6).all() for r in range(n))
    # A failed call poisons its group: the end reports it and nothing of the group runs.
    ok(rccl.ncclGroupStart())
    ok(rccl.ncclAllReduce(d[0], d[0], 4, T.ncclInt32, OP.ncclSum, world[0], None))
    assert rccl.ncclBroadcast(d[1], d[1], 4, T.ncclInt32, 7, world[1], None)[0] == R.ncclInvalidArgument
    assert rccl.ncclGroupEnd()[0] == R.ncclInvalidArgument
    sync(n)
    assert (bufs.get(0, d[0], xs[0]) == 6).all()
    # After the failed group the thread is out of any group.
    grouped([lambda r=r: rccl.ncclAllReduce(d[r], d[r], 4, T.ncclInt32, OP.ncclSum, world[r], None)
             for r in range(n)])
    sync(n)
    assert (bufs.get(2, d[2], xs[0]) == 18).all()


def test_streams_order_and_several_streams(world, bufs):
    n = 3
    streams = []
    for r in range(n):
        hok(hip.hipSetDevice(r))
        streams.append((hok(hip.hipStreamCreate()), hok(hip.hipStreamCreate())))
    d = [bufs.put(r, np.zeros(8, np.float32)) for r in range(n)]
    e = [bufs.put(r, np.zeros(8, np.float32)) for r in range(n)]
    host = [np.full(8, r + 1, np.float32) for r in range(n)]
    for r in range(n):  # the input arrives on the same stream, before the collective
        hok(hip.hipSetDevice(r))
        hok(hip.hipMemcpyAsync(d[r], host[r], 32, K.hipMemcpyHostToDevice, streams[r][0]))
    # Two streams per rank in one group: the second operation waits for the first stream's copy.
    grouped([f for r in range(n) for f in (
        lambda r=r: rccl.ncclAllReduce(d[r], d[r], 8, T.ncclFloat32, OP.ncclSum, world[r], streams[r][0]),
        lambda r=r: rccl.ncclAllReduce(d[r], e[r], 8, T.ncclFloat32, OP.ncclSum, world[r], streams[r][1]))])
    for r in range(n):
        hok(hip.hipStreamSynchronize(streams[r][1]))
        # Ordered after the copy; both operations of the launch read their inputs before either writes.
        assert (bufs.get(r, e[r], host[0]) == 6).all() and (bufs.get(r, d[r], host[0]) == 6).all()
    for r in range(n):
        for s in streams[r]:
            hok(hip.hipStreamDestroy(s))


def test_timeline_shows_collectives(world, bufs):
    d = [bufs.put(r, np.ones(4, np.float32)) for r in range(3)]
    with rm.trace() as rec:
        grouped([lambda r=r: rccl.ncclAllReduce(d[r], d[r], 4, T.ncclFloat32, OP.ncclSum, world[r], None)
                 for r in range(3)])
        sync(3)
    events = [e for e in rec.chrome_trace()["traceEvents"] if e.get("cat") == "collective"]
    assert sorted(e["pid"] for e in events) == [0, 1, 2] and all(e["name"] == "ncclAllReduce" for e in events)


# --- communicators --------------------------------------------------------------------------------------


def test_init_rank_from_threads_blocks_until_all_join(configure):
    configure(count=3)
    uid = rccl.ncclUniqueId()
    ok(rccl.ncclGetUniqueId(uid))
    joined, results, last_started = {}, {}, []

    def rank(r):
        hok(hip.hipSetDevice(r))
        if r == 2:
            time.sleep(0.2)
            last_started.append(time.perf_counter())
        comm = ok(rccl.ncclCommInitRank(3, uid, r))
        joined[r] = time.perf_counter()
        stream = hok(hip.hipStreamCreate())
        d = hok(hip.hipMalloc(16))
        hok(hip.hipMemcpy(d, np.full(4, r, np.int64)[:2], 16, K.hipMemcpyHostToDevice))
        ok(rccl.ncclAllReduce(d, d, 2, T.ncclInt64, OP.ncclSum, comm, stream))  # no group: one rank per thread
        hok(hip.hipStreamSynchronize(stream))
        out = np.zeros(2, np.int64)
        hok(hip.hipMemcpy(out, d, 16, K.hipMemcpyDeviceToHost))
        results[r] = (out, ok(rccl.ncclCommCount(comm)), ok(rccl.ncclCommCuDevice(comm)),
                      ok(rccl.ncclCommUserRank(comm)))
        hok(hip.hipFree(d))
        hok(hip.hipStreamDestroy(stream))
        ok(rccl.ncclCommDestroy(comm))

    threads = [threading.Thread(target=rank, args=(r,)) for r in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert all(joined[r] >= last_started[0] for r in range(3))
    for r in range(3):
        out, count, device, user_rank = results[r]
        assert (out == 3).all() and (count, device, user_rank) == (3, r, r)


def test_init_rank_in_a_group_from_one_thread(configure, bufs):
    configure(count=2)
    uid = bytearray(128)
    ok(rccl.ncclGetUniqueId(uid))
    ok(rccl.ncclGroupStart())
    comms = []
    for r in range(2):
        hok(hip.hipSetDevice(r))
        comms.append(ok(rccl.ncclCommInitRank(2, uid, r)))
    assert ok(rccl.ncclCommCount(comms[0])) == 0  # not initialized until the group ends (RCCL's zeroed struct)
    ok(rccl.ncclGroupEnd())
    assert [ok(rccl.ncclCommCuDevice(c)) for c in comms] == [0, 1]
    d = [bufs.put(r, np.array([r + 1.0])) for r in range(2)]
    grouped([lambda r=r: rccl.ncclAllReduce(d[r], d[r], 1, T.ncclDouble, OP.ncclProd, comms[r], None)
             for r in range(2)])
    sync(2)
    assert bufs.get(1, d[1], np.zeros(1))[0] == 2.0
    for c in comms:
        ok(rccl.ncclCommDestroy(c))


def test_init_all_forms_and_statuses(configure):
    configure(count=3)
    out = np.zeros(2, np.uint64)
    ok(rccl.ncclCommInitAll(out, 2, [2, 0]))
    comms = [rccl.ncclComm.fromObj(int(a)) for a in out]
    assert [ok(rccl.ncclCommCuDevice(c)) for c in comms] == [2, 0]
    assert hip.hipGetDevice()[1] == 0  # the caller's device is restored
    for c in comms:
        ok(rccl.ncclCommDestroy(c))
    assert rccl.ncclCommInitAll(None, 2, None)[0] == R.ncclInvalidArgument
    assert rccl.ncclCommInitAll(out, -1, None)[0] == R.ncclInvalidArgument
    assert rccl.ncclCommInitAll(out, 2, [0, 5])[0] == R.ncclUnhandledCudaError
    assert rccl.ncclCommInitAll(out, 2, [1, 1])[0] == R.ncclInvalidUsage
    assert ok(rccl.ncclCommInitAll(0, None)) == []


def test_init_rank_statuses(configure):
    configure(count=2)
    uid = rccl.ncclUniqueId()
    ok(rccl.ncclGetUniqueId(uid))
    assert rccl.ncclCommInitRank(0, uid, 0) == (R.ncclInvalidArgument, None)
    assert rccl.ncclCommInitRank(2, uid, 2)[0] == R.ncclInvalidArgument
    assert rccl.ncclCommInitRank(2, uid, -1)[0] == R.ncclInvalidArgument
    with pytest.raises(OverflowError):
        rccl.ncclCommInitRank(1 << 31, uid, 0)
    bad = rccl.ncclConfig_t(size=48, magic=0x1234)
    assert rccl.ncclCommInitRankConfig(1, uid, 0, bad)[0] == R.ncclInvalidArgument
    for field, value in (("blocking", 2), ("splitShare", 3), ("cgaClusterSize", -1), ("minCTAs", 0)):
        cfg = rccl.ncclConfig_t(size=48, magic=0xCAFEBEEF, version=22005, blocking=-(1 << 31),
                                cgaClusterSize=-(1 << 31), minCTAs=-(1 << 31), maxCTAs=-(1 << 31),
                                splitShare=-(1 << 31))
        setattr(cfg, field, value)
        assert rccl.ncclCommInitRankConfig(1, uid, 0, cfg)[0] == R.ncclInvalidArgument, field
    assert "config" in str(rccl.ncclGetLastError(None)[0])
    # A zeroed struct (size 0) is all defaults, as is NULL.
    for cfg in (rccl.ncclConfig_t(), None):
        ok(rccl.ncclGetUniqueId(uid))
        comm = ok(rccl.ncclCommInitRankConfig(1, uid, 0, cfg))
        assert ok(rccl.ncclCommCount(comm)) == 1
        ok(rccl.ncclCommDestroy(comm))
    # Two ranks of one clique on one device.
    ok(rccl.ncclGetUniqueId(uid))
    statuses = []

    def rank(r):
        hok(hip.hipSetDevice(0))
        st, comm = rccl.ncclCommInitRank(2, uid, r)
        statuses.append(st)
        if comm is not None:
            rccl.ncclCommDestroy(comm)

    threads = [threading.Thread(target=rank, args=(r,)) for r in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert statuses == [R.ncclInvalidUsage] * 2


def test_nonblocking_init_and_finalize(configure):
    configure(count=2)
    uid = rccl.ncclUniqueId()
    ok(rccl.ncclGetUniqueId(uid))
    comms, first = {}, {}

    def rank(r):
        hok(hip.hipSetDevice(r))
        cfg = rccl.ncclConfig_t(size=48, magic=0xCAFEBEEF, version=22005, blocking=0, cgaClusterSize=-(1 << 31),
                                minCTAs=-(1 << 31), maxCTAs=-(1 << 31), splitShare=-(1 << 31))
        st, comm = rccl.ncclCommInitRankConfig(2, uid, r, cfg)
        first[r] = st
        comms[r] = comm

    t0 = threading.Thread(target=rank, args=(0,))
    t0.start()
    t0.join(timeout=60)
    assert first[0] == R.ncclInProgress  # returned without waiting for rank 1
    state = ctypes.c_int(-1)
    ok(rccl.ncclCommGetAsyncError(comms[0], state))
    assert state.value == R.ncclInProgress
    assert rccl.ncclCommCount(comms[0])[0] == R.ncclInvalidArgument  # in progress: not usable yet
    rank(1)
    deadline = time.time() + 30
    while ok(rccl.ncclCommGetAsyncError(comms[0])) == R.ncclInProgress and time.time() < deadline:
        time.sleep(0.005)
    assert ok(rccl.ncclCommGetAsyncError(comms[0])) == R.ncclSuccess
    assert ok(rccl.ncclCommCount(comms[1])) == 2
    # A failure sticks to a non-blocking communicator (its asynchronous error), as in RCCL.
    assert rccl.ncclBroadcast(None, None, 1, T.ncclInt8, 5, comms[1], None)[0] == R.ncclInvalidArgument
    assert ok(rccl.ncclCommGetAsyncError(comms[1])) == R.ncclInvalidArgument
    assert rccl.ncclCommCount(comms[1])[0] == R.ncclInvalidArgument
    ok(rccl.ncclCommAbort(comms.pop(1)))
    for c in comms.values():
        st = rccl.ncclCommFinalize(c)[0]
        assert st in (R.ncclInProgress, R.ncclSuccess)
        while ok(rccl.ncclCommGetAsyncError(c)) == R.ncclInProgress:
            time.sleep(0.005)
        ok(rccl.ncclCommDestroy(c))


def test_split(configure, bufs):
    configure(count=4)
    comms = make_comms(4)
    new = {}

    def rank(r):
        hok(hip.hipSetDevice(r))
        color = rccl.NCCL_UNIQUE_ID_BYTES and (-1 if r == 3 else r % 2)
        new[r] = ok(rccl.ncclCommSplit(comms[r], color, -r, None))  # higher parent rank first

    threads = [threading.Thread(target=rank, args=(r,)) for r in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert new[3] is None
    assert [ok(rccl.ncclCommCount(new[r])) for r in range(3)] == [2, 1, 2]
    assert [ok(rccl.ncclCommUserRank(new[r])) for r in range(3)] == [1, 0, 0]
    assert [ok(rccl.ncclCommCuDevice(new[r])) for r in range(3)] == [0, 1, 2]
    d = [bufs.put(r, np.array([r + 1], np.int32)) for r in range(3)]
    grouped([lambda r=r: rccl.ncclAllReduce(d[r], d[r], 1, T.ncclInt32, OP.ncclSum, new[r], None)
             for r in (0, 2)])
    sync(4)
    assert bufs.get(0, d[0], np.zeros(1, np.int32))[0] == 4 and bufs.get(1, d[1], np.zeros(1, np.int32))[0] == 2
    # In a group the new communicator is made at its end: hip-python returns None for it.
    assert rccl.ncclCommSplit(None, 0, 0, None)[0] == R.ncclInvalidArgument
    for c in [*comms, new[0], new[1], new[2]]:
        ok(rccl.ncclCommDestroy(c))


# --- statuses -------------------------------------------------------------------------------------------


def test_collective_argument_statuses(world, bufs):
    d = bufs.put(0, np.zeros(4, np.float32))
    c = world[0]
    IA = R.ncclInvalidArgument
    assert rccl.ncclAllReduce(d, d, 4, T.ncclFloat32, OP.ncclSum, None, None)[0] == IA  # NULL comm
    assert rccl.ncclAllReduce(d, d, 4, T.ncclFloat32, OP.ncclSum, 12345, None)[0] == IA  # not a communicator
    assert rccl.ncclBroadcast(d, d, 4, T.ncclFloat32, 3, c, None)[0] == IA  # root out of range
    assert rccl.ncclReduce(d, d, 4, T.ncclFloat32, OP.ncclSum, -1, c, None)[0] == IA
    assert rccl.ncclSend(d, 4, T.ncclFloat32, 3, c, None)[0] == IA  # peer out of range
    assert rccl.ncclAllReduce(d, d, 4, T.ncclNumTypes, OP.ncclSum, c, None)[0] == IA
    assert rccl.ncclAllReduce(d, d, 4, T.ncclFloat32, OP.ncclNumOps, c, None)[0] == IA  # no such user operator
    assert rccl.ncclAllReduce(d, d, 4, T.ncclFloat32, OP.ncclMaxRedOp, c, None)[0] == IA
    # The root is checked before the type.
    assert rccl.ncclReduce(d, d, 4, T.ncclNumTypes, OP.ncclSum, 9, c, None)[0] == IA
    assert "root" in str(rccl.ncclGetLastError(c)[0])
    assert rccl.ncclAllReduce(d, d, 4, T.ncclFp8E4M3, OP.ncclSum, c, None)[0] == IA  # fp8 arithmetic
    with pytest.raises(TypeError):
        rccl.ncclAllReduce(d, d, 4, 7, OP.ncclSum, c, None)
    with pytest.raises(TypeError):
        rccl.ncclAllReduce(d, d, 4, T.ncclFloat32, 0, c, None)
    with pytest.raises(OverflowError):
        rccl.ncclAllReduce(d, d, -1, T.ncclFloat32, OP.ncclSum, c, None)
    # An invalid stream is a failed HIP call; a count of 0 returns before RCCL looks at the stream.
    bogus = 0x7E << 44 | 8  # the address of no live stream
    assert rccl.ncclAllReduce(d, d, 4, T.ncclFloat32, OP.ncclSum, c, bogus)[0] == R.ncclUnhandledCudaError
    ok(rccl.ncclAllReduce(d, d, 0, T.ncclFloat32, OP.ncclSum, c, bogus))
    ok(rccl.ncclAllToAll(d, d, 0, T.ncclFloat32, c, None))
    assert rccl.ncclAllToAll(d, d, 1, T.ncclFloat32, None, None)[0] == IA
    assert rccl.ncclCommCount(None)[0] == IA and rccl.ncclCommUserRank(0)[0] == IA
    with pytest.raises(TypeError):
        rccl.ncclAllReduce(d, d, 4, T.ncclFloat32, OP.ncclSum, c, None, None)


def test_pointer_checks_with_nccl_check_pointers(configure, bufs, monkeypatch):
    configure(count=2)
    monkeypatch.setenv("NCCL_CHECK_POINTERS", "1")
    comms = make_comms(2)
    mine, other = bufs.put(0, np.zeros(4, np.float32)), bufs.put(1, np.zeros(4, np.float32))
    host = np.zeros(4, np.float32)
    IA = R.ncclInvalidArgument
    assert rccl.ncclAllReduce(host, mine, 4, T.ncclFloat32, OP.ncclSum, comms[0], None)[0] == IA
    assert rccl.ncclAllReduce(mine, other, 4, T.ncclFloat32, OP.ncclSum, comms[0], None)[0] == IA  # device 1's
    assert rccl.ncclSend(None, 4, T.ncclFloat32, 1, comms[0], None)[0] == IA
    ok(rccl.ncclSend(None, 0, T.ncclFloat32, 1, comms[0], None))  # count 0: no pointer to check...
    ok(rccl.ncclRecv(None, 0, T.ncclFloat32, 0, comms[1], None))  # ...and its match
    # Non-roots' recvbuff of a Reduce and sendbuff of a Broadcast are not looked at.
    grouped([lambda: rccl.ncclReduce(mine, mine, 4, T.ncclFloat32, OP.ncclSum, 0, comms[0], None),
             lambda: rccl.ncclReduce(other, None, 4, T.ncclFloat32, OP.ncclSum, 0, comms[1], None)])
    pinned = hok(hip.hipHostMalloc(16, 0))  # pinned host memory has a device pointer: accepted
    grouped([lambda: rccl.ncclBroadcast(pinned, mine, 4, T.ncclFloat32, 0, comms[0], None),
             lambda: rccl.ncclBroadcast(None, other, 4, T.ncclFloat32, 0, comms[1], None)])
    sync(2)
    hok(hip.hipHostFree(pinned))
    for c in comms:
        ok(rccl.ncclCommDestroy(c))


def test_bad_buffer_without_checks_faults_the_streams(world, bufs):
    d = [bufs.put(r, np.ones(4, np.float32)) for r in range(3)]
    host = np.ones(4, np.float32)  # not device memory: RCCL does not check by default, the kernel faults
    grouped([lambda r=r: rccl.ncclAllReduce(host if r == 1 else d[r], d[r], 4, T.ncclFloat32, OP.ncclSum, world[r],
                                            None) for r in range(3)])
    failed = []
    for r in range(3):
        hip.hipSetDevice(r)
        failed.append(hip.hipDeviceSynchronize()[0] != hip.hipError_t.hipSuccess)
    hip.hipSetDevice(0)
    assert failed == [True, True, True]  # every rank's part reports it (none waits forever)
    assert (bufs.get(0, d[0], host) == 1).all()


def test_destroyed_and_aborted_communicators(configure, bufs):
    configure(count=2)
    comms = make_comms(2)
    ok(rccl.ncclCommFinalize(comms[0]))
    assert rccl.ncclCommFinalize(comms[0])[0] == R.ncclInvalidArgument  # twice
    ok(rccl.ncclCommDestroy(comms[0]))
    assert rccl.ncclCommDestroy(comms[0])[0] == R.ncclInvalidArgument
    assert rccl.ncclCommCount(comms[0])[0] == R.ncclInvalidArgument
    ok(rccl.ncclCommDestroy(None))
    ok(rccl.ncclCommAbort(None))
    ok(rccl.ncclCommFinalize(None))
    ok(rccl.ncclCommDestroy(comms[1]))
    # Abort releases a rank whose peer never takes part.
    comms = make_comms(2)
    d = bufs.put(0, np.ones(4, np.float32))
    hok(hip.hipSetDevice(0))
    stream = hok(hip.hipStreamCreate())
    ok(rccl.ncclAllReduce(d, d, 4, T.ncclFloat32, OP.ncclSum, comms[0], stream))
    time.sleep(0.05)
    assert hip.hipStreamQuery(stream)[0] == hip.hipError_t.hipErrorNotReady
    ok(rccl.ncclCommAbort(comms[0]))
    hok(hip.hipStreamSynchronize(stream))
    assert (bufs.get(0, d, np.zeros(4, np.float32)) == 1).all()
    hok(hip.hipStreamDestroy(stream))
    ok(rccl.ncclCommDestroy(comms[1]))


def test_user_pre_mul_sum_operators(world, bufs):
    n = 3
    xs = [np.arange(4, dtype=np.float64) + r for r in range(n)]
    d = [bufs.put(r, x) for r, x in enumerate(xs)]
    out = [bufs.put(r, np.zeros(4)) for r in range(n)]
    ops = []
    for r in range(n):
        scalar = ctypes.c_double(r + 1.0)
        if r == 2:  # a device scalar, read when the collective runs
            dev_scalar = bufs.put(r, np.array([3.0]))
            st, op = rccl.ncclRedOpCreatePreMulSum(dev_scalar, T.ncclFloat64,
                                                   rccl.ncclScalarResidence_t.ncclScalarDevice, world[r])
        else:
            st, op = rccl.ncclRedOpCreatePreMulSum(ctypes.addressof(scalar), T.ncclFloat64,
                                                   rccl.ncclScalarResidence_t.ncclScalarHostImmediate, world[r])
        assert st == R.ncclSuccess and isinstance(op, rccl._ncclRedOp_t__Base) and int(op) >= OP.ncclNumOps
        ops.append(op)
    grouped([lambda r=r: rccl.ncclAllReduce(d[r], out[r], 4, T.ncclFloat64, ops[r], world[r], None)
             for r in range(n)])
    sync(n)
    want = xs[0] * 1 + xs[1] * 2 + xs[2] * 3
    for r in range(n):
        np.testing.assert_array_equal(bufs.get(r, out[r], xs[0]), want)
    # The operator belongs to its communicator and data type.
    assert rccl.ncclAllReduce(d[0], out[0], 4, T.ncclFloat32, ops[0], world[0], None)[0] == R.ncclInvalidArgument
    assert rccl.ncclAllReduce(d[1], out[1], 4, T.ncclFloat64, ops[0], world[1], None)[0] == R.ncclInvalidArgument
    # The written form: a C int receives the handle.
    written = ctypes.c_int(0)
    scalar = ctypes.c_double(2.0)
    ok(rccl.ncclRedOpCreatePreMulSum(written, ctypes.addressof(scalar), T.ncclFloat64,
                                     rccl.ncclScalarResidence_t.ncclScalarHostImmediate, world[0]))
    assert written.value >= 5 and written.value != int(ops[0])
    ok(rccl.ncclRedOpDestroy(rccl.ncclRedOp_t.__mro__[1]("X", [("x", written.value)]).x, world[0]))
    for r in range(n):
        ok(rccl.ncclRedOpDestroy(ops[r], world[r]))
    assert rccl.ncclRedOpDestroy(ops[0], world[0])[0] == R.ncclInvalidArgument  # destroyed already
    assert rccl.ncclAllReduce(d[0], out[0], 4, T.ncclFloat64, ops[0], world[0], None)[0] == R.ncclInvalidArgument
    assert rccl.ncclRedOpDestroy(OP.ncclSum, world[0])[0] == R.ncclInvalidArgument  # a built-in
    assert rccl.ncclRedOpDestroy(OP.ncclNumOps, None)[0] == R.ncclInvalidArgument
    with pytest.raises(TypeError):
        rccl.ncclRedOpCreatePreMulSum(ctypes.addressof(scalar), 8, rccl.ncclScalarResidence_t.ncclScalarDevice,
                                      world[0])


def test_memory_registration_and_async_error(world):
    ptr = ctypes.c_void_p()
    ok(rccl.ncclMemAlloc(ptr, 256))
    assert ptr.value
    handle = ctypes.c_void_p()
    ok(rccl.ncclCommRegister(world[0], ptr.value, 256, handle))
    again = ok(rccl.ncclCommRegister(world[0], ptr.value + 16, 16))  # inside the registered pages
    assert again == handle.value
    ok(rccl.ncclCommDeregister(world[0], handle))
    ok(rccl.ncclCommDeregister(world[0], handle))
    assert rccl.ncclCommDeregister(world[0], handle)[0] == R.ncclInvalidUsage
    assert rccl.ncclCommDeregister(None, handle)[0] == R.ncclInvalidArgument
    ok(rccl.ncclMemFree(ptr))
    ok(rccl.ncclMemFree(None))
    assert ok(rccl.ncclMemAlloc(0)) == 0
    assert rccl.ncclMemFree(ptr)[0] == R.ncclUnhandledCudaError  # freed twice
    assert ok(rccl.ncclCommGetAsyncError(world[1])) == R.ncclSuccess
    assert rccl.ncclCommGetAsyncError(world[1], None)[0] == R.ncclInvalidArgument
    assert rccl.ncclCommGetAsyncError(None, ctypes.c_int())[0] == R.ncclInvalidArgument


def test_captured_collective_replays(configure, bufs):
    configure(count=2)
    comms = make_comms(2)
    d = [bufs.put(r, np.array([r + 1.0])) for r in range(2)]
    streams, execs = [], []
    for r in range(2):
        hok(hip.hipSetDevice(r))
        streams.append(hok(hip.hipStreamCreate()))
        hok(hip.hipStreamBeginCapture(streams[r], hip.hipStreamCaptureMode.hipStreamCaptureModeGlobal))
        ok(rccl.ncclAllReduce(d[r], d[r], 1, T.ncclDouble, OP.ncclSum, comms[r], streams[r]))
        graph = hok(hip.hipStreamEndCapture(streams[r]))
        execs.append(hok(hip.hipGraphInstantiate(graph, None, 0))[0])
        hok(hip.hipGraphDestroy(graph))
    for _ in range(3):  # each launch meets the peer's launch of the same round
        for r in range(2):
            hok(hip.hipSetDevice(r))
            hok(hip.hipGraphLaunch(execs[r], streams[r]))
    for r in range(2):
        hok(hip.hipStreamSynchronize(streams[r]))
        assert bufs.get(r, d[r], np.zeros(1))[0] == 12.0  # 1 + 2 -> 3 -> 6 -> 12
        hok(hip.hipGraphExecDestroy(execs[r]))
        hok(hip.hipStreamDestroy(streams[r]))
    for c in comms:
        ok(rccl.ncclCommDestroy(c))
