"""The kernel launcher: argument binding and checking, profiling, numba kernels on streams."""

from __future__ import annotations

import os
import re
import threading

import numba
import numpy as np
import pytest
from numba import prange

import rocmath as rm
from rocmath import errors
from rocmath.kernel import chunk, claim, stack_array, store_fence, store_streaming
from rocmath.launch import byte_extent

TIMEOUT = 30


@rm.kernel
def axpy_kernel(alpha, x, y):
    for i in prange(x.shape[0]):
        y[i] = alpha * x[i] + y[i]


@rm.kernel
def scale_kernel(x, alpha):
    for i in prange(x.shape[0]):
        x[i] *= alpha


@rm.kernel(parallel=False)
def row_sums_kernel(a, out):
    for i in range(a.shape[0]):
        acc = 0.0
        for j in range(a.shape[1]):
            acc += a[i, j]
        out[i] = acc


@rm.kernel
def claimed_kernel(blocks, threads, step, times, counter):
    # Each thread claims blocks until none is left; times[b] counts the claims that got block b.
    for _thread in prange(threads):
        b = claim(counter, step)
        while b < blocks:
            for q in range(b, min(b + step, blocks)):
                times[q] += 1
            b = claim(counter, step)


_THREE_BY_FOUR = ((0,) * 4,) * 3


@rm.kernel
def outer_tiles_kernel(x, y, out):
    # out[b] := x[b] y[b]^T, 3 x 4, built in each thread's stack tile; the tile's shape and
    # strides are copied out too.
    for b in prange(x.shape[0]):
        tile = stack_array(_THREE_BY_FOUR, out.dtype)
        for i in range(3):
            for j in range(4):
                tile[i, j] = 0
        for i in range(3):
            for j in range(4):
                tile[i, j] += x[b, i] * y[b, j]
        for i in range(3):
            for j in range(4):
                out[b, i, j] = tile[i, j]


def _raise(*_):
    raise ZeroDivisionError("kernel bug")


# --- binding ----------------------------------------------------------------------------------


def test_device_arguments_become_views():
    x = rm.to_device(np.arange(12.0).reshape(3, 4))
    p = rm.malloc(64)
    rm.memset(p, 0, 64)
    seen = {}

    def kernel(view, buf, scalar, text, host):
        seen.update(view=(type(view), view.shape, view.strides, view.dtype), buf=(buf.shape, buf.dtype),
                    scalar=scalar, text=text, host=host)
        buf[:] = view  # writes land in device memory
        view[0, 0] = -1.0

    host = np.zeros(2)
    rm.launch(kernel, x[:, ::2].T, rm.buffer(p, np.float64, (2, 3), strides=(8, 16)), 2.5, "t", host,
              name="binding").wait()
    assert seen["view"] == (np.ndarray, (2, 3), (16, 32), np.dtype(np.float64))
    assert seen["buf"] == ((2, 3), np.dtype(np.float64))
    assert seen["scalar"] == 2.5 and seen["text"] == "t" and seen["host"] is host
    got = np.empty(8)
    rm.memcpy(got, p, 64)
    # buf[i, j] sits at element i + 2j and holds x[j, 2i] = 4j + 2i.
    want = np.array([0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 0.0, 0.0])
    np.testing.assert_array_equal(got, want)
    expect = np.arange(12.0).reshape(3, 4)
    expect[0, 0] = -1.0
    np.testing.assert_array_equal(x.get(), expect)
    rm.free(p)


def test_buffer_helper():
    b = rm.buffer(np.int64(4096), "float32", np.int32(5), name="x")
    assert b == rm.Buffer(4096, np.dtype(np.float32), (5,), None, "x")
    assert rm.buffer(0, np.float64, [2, 3], [8, 16]).strides == (8, 16)


@pytest.mark.parametrize("shape, strides, lo, hi", [
    ((3, 4), (32, 8), 0, 96), ((3, 4), (8, 24), 0, 96), ((5,), (-8,), -32, 8), ((0, 7), (8, 8), 0, 0),
    ((2, 3), (0, 8), 0, 24), ((), (), 0, 8),
])
def test_byte_extent(shape, strides, lo, hi):
    assert byte_extent(shape, strides, 8) == (lo, hi)
    if hi > lo:  # numpy agrees about which bytes a strided view spans
        base = np.zeros(64, np.float64)
        v = np.lib.stride_tricks.as_strided(base[-lo // 8:], shape, strides)
        first = v.__array_interface__["data"][0]
        lo_np, hi_np = np.byte_bounds(v) if hasattr(np, "byte_bounds") else np.lib.array_utils.byte_bounds(v)
        assert (lo_np - first, hi_np - first) == (lo, hi)


@pytest.mark.parametrize("args, offset", [
    ((np.float64, 13), 104),                # 13 doubles in a 100-byte allocation
    ((np.float64, (4, 4), (32, 8)), 128),   # last row past the end
    ((np.uint8, 101), 101),
])
def test_out_of_bounds_buffer_is_refused_at_enqueue(args, offset):
    p = rm.malloc(100)
    rm.memset(p, 0x11, 100)
    ran = []
    with pytest.raises(rm.MemoryAccessFault) as info:
        rm.launch(lambda *a: ran.append(a), rm.buffer(p, *args, name="A"), name="my_gemm")
    msg = str(info.value)
    assert msg.startswith("my_gemm") and "argument 'A'" in msg and f"0x{p:x}" in msg
    assert "100 bytes" in msg and f"offset {offset}" in msg
    rm.device_synchronize()
    assert ran == []
    got = np.empty(100, np.uint8)
    rm.memcpy(got, p, 100)
    assert (got == 0x11).all()
    rm.free(p)


def test_negative_strides_reaching_before_the_allocation_are_refused():
    p = rm.malloc(80)
    rm.launch(lambda v: None, rm.buffer(p + 72, np.float64, 10, (-8,)), name="ok")  # exactly fits
    with pytest.raises(rm.MemoryAccessFault, match="offset -8"):
        rm.launch(lambda v: None, rm.buffer(p + 64, np.float64, 10, (-8,)), name="reverse")
    rm.device_synchronize()
    rm.free(p)


def test_device_array_arguments_are_named_by_position():
    x = rm.empty(4)
    bad = rm.DeviceArray.from_pointer(x.ptr, 4)
    object.__setattr__(bad, "shape", (5,))  # a corrupted view: one element too many
    with pytest.raises(rm.MemoryAccessFault, match="argument '#2'"):
        rm.launch(lambda *a: None, 1.0, bad, name="k")


def test_invalid_pointers_are_refused_at_enqueue():
    p = rm.malloc(8)
    rm.free(p)
    with pytest.raises(errors.InvalidDevicePointerError, match="freed"):
        rm.launch(lambda v: None, rm.buffer(p, np.uint8, 8), name="k")
    with pytest.raises(errors.InvalidDevicePointerError, match="not inside any allocation"):
        rm.launch(lambda v: None, rm.buffer(1234, np.uint8, 8), name="k")


def test_empty_arguments_touch_nothing():
    got = []
    rm.launch(lambda v, w: got.append((v.shape, w.shape)), rm.buffer(0, np.float32, (0, 3)), rm.empty((4, 0)),
              name="empty").wait()
    assert got == [((0, 3), (4, 0))]


def test_kernel_errors_are_sticky_and_named():
    s = rm.Stream()
    task = rm.launch(_raise, rm.empty(2), name="broken_kernel", stream=s)
    with pytest.raises(errors.LaunchFailureError) as info:
        task.wait()
    assert "broken_kernel" in str(info.value) and "ZeroDivisionError: kernel bug" in str(info.value)
    assert isinstance(info.value.__cause__, ZeroDivisionError)
    s.synchronize()  # reported by the wait
    rm.get_last_error()


# --- profiling -------------------------------------------------------------------------------


def test_profile_records_launches():
    s = rm.Stream()
    x = rm.to_device(np.ones(1000))
    y = rm.zeros(1000)
    rm.launch(axpy_kernel, 1.0, x, y, name="warm").wait()  # compile outside the timed block
    with rm.profile() as records:
        rm.launch(axpy_kernel, 2.0, x, y, name="axpy", stream=s, flops=2000, bytes=24000)
        rm.launch(scale_kernel, y, 0.5, name="scal", flops=1000, bytes=16000)
        rm.device_synchronize()  # a launch is recorded by the profiles open when it completes
        with rm.profile() as inner:
            rm.launch(scale_kernel, y, 2.0, name="inner")
            rm.device_synchronize()
        s.synchronize()
        rm.device_synchronize()
    rm.launch(scale_kernel, y, 1.0, name="after").wait()
    names = [r.name for r in records]
    assert sorted(names) == ["axpy", "inner", "scal"]
    assert [r.name for r in inner] == ["inner"]
    by_name = {r.name: r for r in records}
    assert by_name["axpy"].stream == s.ident and by_name["scal"].stream == 0
    assert (by_name["axpy"].flops, by_name["axpy"].bytes) == (2000, 24000)
    assert (by_name["scal"].flops, by_name["scal"].bytes) == (1000, 16000)
    for r in records:
        assert r.device == 0 and r.end_ns >= r.start_ns and r.seconds >= 0
        assert r.dtype is None and r.arch == "gfx942" and r.model_seconds() >= 0
        with pytest.raises(AttributeError):  # records are immutable
            r.flops = 0
    np.testing.assert_array_equal(y.get(), np.full(1000, 3.0))


# --- numba kernels -----------------------------------------------------------------------------


def test_numba_kernel_gives_numpy_results():
    a = np.random.default_rng(1).standard_normal((7, 5))
    x = rm.to_device(a)
    out = rm.empty(7)
    rm.launch(row_sums_kernel, x, out, name="row_sums").wait()
    np.testing.assert_allclose(out.get(), a.sum(axis=1), rtol=1e-13)
    # A transposed (F-ordered) view is a different layout, same results.
    outT = rm.empty(5)
    rm.launch(row_sums_kernel, x.T, outT, name="row_sums").wait()
    np.testing.assert_allclose(outT.get(), a.sum(axis=0), rtol=1e-13)


@pytest.mark.parametrize("threads", [1, 2, 5])
@pytest.mark.parametrize(("blocks", "step"), [(0, 1), (1, 1), (7, 3), (100_000, 1), (100_000, 64)])
def test_claims_hand_out_every_block_once(blocks, threads, step):
    # Threads racing for blocks (100,000 claims of one: they collide) get each exactly once, and
    # each thread's last claim, the one that found none left, still counted.
    times = np.zeros(blocks, np.int64)
    counter = np.zeros(1, np.int64)
    claimed_kernel(blocks, threads, step, times, counter)
    assert np.array_equal(times, np.ones(blocks, np.int64))
    assert counter[0] == step * (-(-blocks // step) + threads)


def test_claims_take_integer_counters_only():
    @numba.njit
    def bad(counter):
        return claim(counter, 1)

    with pytest.raises(numba.TypingError):
        bad(np.zeros(1))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.int64])
def test_stack_arrays_are_private_to_each_iteration(dtype):
    # 5,000 iterations over two threads, each with its own tile: integer-valued, exact.
    rng = np.random.default_rng(7)
    x = rng.integers(-9, 10, (5000, 3)).astype(dtype)
    y = rng.integers(-9, 10, (5000, 4)).astype(dtype)
    out = np.full((5000, 3, 4), 99, dtype)
    outer_tiles_kernel(x, y, out)
    assert np.array_equal(out, x[:, :, None] * y[:, None, :])


def test_stack_array_shape_strides_and_dtype():
    @numba.njit
    def layout(like):
        a = stack_array(like, np.float32)
        return a.shape, a.strides, a.flags.c_contiguous

    assert layout(((0,) * 16,) * 4) == ((4, 16), (64, 4), True)
    assert layout((1, 2, 3)) == ((3,), (4,), True)


@pytest.mark.parametrize("like", [3, (), 2.5])
def test_stack_array_needs_a_tuple_shape(like):
    @numba.njit
    def bad(like):
        return stack_array(like, np.float64)[0]

    with pytest.raises(numba.TypingError):
        bad(like)


def test_stack_array_needs_a_numeric_dtype():
    @numba.njit
    def bad(x):
        return stack_array((0, 0), x)[0]

    with pytest.raises(numba.TypingError):
        bad("text")


@numba.njit(parallel=True)
def _streamed(out, scale):
    for t in prange(4):
        for i in range(t, out.shape[0], 4):
            store_streaming(out, i, i * scale)  # converted to out's type
        store_fence()


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex128])
def test_streaming_stores_write_every_element_once_fenced(dtype):
    out = np.full(1003, 7, dtype)
    _streamed(out, 3)
    assert np.array_equal(out, np.arange(1003) * 3)
    view = np.zeros(2006, dtype)[::2]  # not contiguous: refused at typing
    with pytest.raises(numba.TypingError):
        _streamed(view, 3)


def test_threading_layer_is_thread_safe():
    x = rm.to_device(np.ones(100))
    rm.launch(scale_kernel, x, 2.0, name="scale").wait()
    layer = numba.threading_layer()
    assert layer != "workqueue"
    assert layer in ("omp", "tbb")
    from rocmath.kernel import threading_layer

    assert threading_layer() == layer


@pytest.mark.parametrize("chosen", [None, {"OMP_WAIT_POLICY": "PASSIVE"}, {"GOMP_SPINCOUNT": "50"}])
def test_idle_openmp_threads_spin_briefly_unless_the_user_chose(chosen):
    # GNU OpenMP's default spin (milliseconds) lets idle teams, one per thread running parallel
    # kernels, take the cores from the team with work, and its throttled spin (100 rounds, once a
    # second thread has a team) puts the caller to sleep at every closing barrier: rocmath sets
    # both before libgomp is loaded (libgomp shows what it read: OMP_DISPLAY_ENV), takes them out
    # of the environment once the pool has started (children do not inherit them), and keeps the
    # user's choice of policy or spin count.
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    env.update(chosen or {}, OMP_DISPLAY_ENV="VERBOSE")
    code = ("import os, numpy as np, rocmath as rm\n"
            "show = lambda: print(os.environ.get('OMP_WAIT_POLICY'), os.environ.get('GOMP_SPINCOUNT'))\n"
            "show()\n"
            "import rocmath.blas as rb\n"
            "rb.dnrm2(rb.create_handle(), 1 << 20, rm.to_device(np.ones(1 << 20)), 1)\n"  # a kernel: the pool starts
            "rm.device_synchronize(); show(); from rocmath.kernel import threading_layer; print(threading_layer())\n")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    at_import, after_start, layer = out.stdout.split("\n")[:3]
    if chosen is None:
        ours = sys.platform.startswith("linux")
        assert at_import == ("ACTIVE 3000" if ours else "None None")
        assert after_start == "None None"
        if ours and layer == "omp":
            assert "OMP_WAIT_POLICY = 'ACTIVE'" in out.stderr and "GOMP_SPINCOUNT = '3000'" in out.stderr
    else:
        expected = {"PASSIVE": "PASSIVE None", "50": "None 50"}[next(iter(chosen.values()))]
        assert at_import == after_start == expected


def test_kernels_run_concurrently_on_two_streams_from_several_threads():
    streams = [rm.Stream(), rm.Stream(non_blocking=True)]
    n, rounds, nthreads = 20_000, 6, 4
    rng = np.random.default_rng(7)
    data = [(rng.standard_normal(n), rng.standard_normal(n)) for _ in range(nthreads)]
    results, failures = {}, []
    start = threading.Barrier(nthreads, timeout=TIMEOUT)

    def worker(t):
        try:
            s = streams[t % 2]
            hx, hy = data[t]
            x, y = rm.to_device(hx, stream=s), rm.to_device(hy, stream=s)
            start.wait()
            for r in range(rounds):
                rm.launch(axpy_kernel, float(t + 1), x, y, name="axpy", stream=s)
                if r % 2:
                    rm.launch(scale_kernel, y, 0.5, name="scale", stream=s)
            results[t] = y.get(stream=s)
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(nthreads)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(TIMEOUT)
    assert not failures and len(results) == nthreads
    for t in range(nthreads):
        hx, want = data[t][0], data[t][1].copy()
        for r in range(rounds):
            want = (t + 1) * hx + want
            if r % 2:
                want *= 0.5
        np.testing.assert_allclose(results[t], want, rtol=1e-12, atol=1e-12)
    for s in streams:
        s.synchronize()


def test_no_recompilation_per_call():
    @rm.kernel
    def add_one(x):
        for i in prange(x.shape[0]):
            x[i] += 1.0

    x = rm.zeros(64)
    other = rm.zeros(256)
    rm.launch(add_one, x, name="add_one").wait()
    rm.launch(add_one, x, name="add_one").wait()
    assert len(add_one.signatures) == 1
    # Views at other offsets and other allocations have the same (aligned, C) type.
    rm.launch(add_one, x[8:], name="add_one").wait()
    rm.launch(add_one, other, name="add_one").wait()
    assert len(add_one.signatures) == 1
    expect = np.full(64, 2.0)
    expect[8:] += 1
    np.testing.assert_array_equal(x.get(), expect)
    np.testing.assert_array_equal(other.get(), np.ones(256))
    # Strided and contiguous views of one dtype and rank share one compiled version.
    rm.launch(add_one, x[::2], name="add_one").wait()
    assert len(add_one.signatures) == 1
    assert len(add_one.dispatcher.signatures) == 1


def test_kernel_entries_follow_the_argument_types():
    # Kernel._entry keys a compiled entry on what the argument types depend on: layouts (and, as
    # numba types them alike, alignments) share the relaxed signature, while dtypes, writeability,
    # scalar and tuple element types and enums each reach their own compiled version, never
    # another's; a big-endian array (numba has no type for it) fails instead of running a native
    # one's version on its swapped bytes.
    import enum

    class Mode(enum.IntEnum):
        plus = 1

    def body(x, factor, shape, mode, out):
        for i in range(x.shape[0]):
            out[i] = x[i] * factor + shape[0] + (1.0 if mode == 1 else 0.0)

    k = rm.kernel(parallel=False)(body)
    x = np.arange(6.0)
    readonly = x.copy()
    readonly.flags.writeable = False
    unaligned = np.frombuffer(bytearray(8 * 6 + 1), np.float64, 6, offset=1)
    unaligned[:] = x
    assert not unaligned.flags.aligned
    calls = [
        (x, 2, (1,), 0), (x[::2], 2, (1,), 0), (np.asfortranarray(x), 2, (1,), 0),  # layouts: one version
        (x.astype(np.float32), 2, (1,), 0), (x, 2.5, (1,), 0), (x, 2, (1.5,), 0), (x, 2, (1, 2), 0),
        (x, True, (1,), 0), (readonly, 2, (1,), 0), (x, 2, (1,), Mode.plus), (x, 2, (1,), 1),
        (unaligned, 2, (1,), 0),
    ]
    for a, factor, shape, mode in calls:
        out = np.zeros(a.shape[0], np.float64)
        k(a, factor, shape, mode, out)
        want = a.astype(np.float64) * float(factor) + shape[0] + (1.0 if mode == 1 else 0.0)
        assert np.array_equal(out, want), (a.dtype, factor, shape, mode)
    # C / strided / F / unaligned: one signature; float32, 2.5, (1.5,), (1, 2), True, read-only, the
    # enum: one each
    assert len(k.signatures) == 8
    out = np.zeros(6)
    with pytest.raises(Exception):  # noqa: B017 (numba's typing error, whichever class it raises)
        k(x.astype(">f8"), 2, (1,), 0, out)
    assert not out.any()


def test_small_launches_run_the_serial_twin_with_the_parallel_bits():
    # A launch of at most INLINE_BYTES runs the kernel compiled without `parallel` (entering a
    # parallel region costs more than tiny work); a larger one runs the parallel kernel.  The
    # twin runs the same loops in the same order: both give the bits of a sequential sum.
    from rocmath.launch import INLINE_BYTES

    @rm.kernel
    def row_sums(a, out):
        for i in prange(a.shape[0]):
            acc = 0.0
            for j in range(a.shape[1]):
                acc += a[i, j] * a[i, j]
            out[i] = acc

    rng = np.random.default_rng(3)
    host = rng.standard_normal((40, 33)) * 10.0 ** rng.integers(-8, 8, (40, 33))
    want = np.array([sum((v * v for v in row), 0.0) for row in host])
    a, out = rm.to_device(host), rm.empty(40)
    assert row_sums.has_serial and not row_sums.signatures
    rm.launch(row_sums, a, out, name="row sums", bytes=a.nbytes + out.nbytes).wait()
    small = out.get()
    assert row_sums._serial.signatures and not row_sums.dispatcher.signatures
    out.fill(0.0)
    rm.launch(row_sums, a, out, name="row sums", bytes=INLINE_BYTES + 1).wait()
    assert row_sums.dispatcher.signatures
    assert len(row_sums.signatures) == 1  # one signature, compiled both ways
    assert small.tobytes() == out.get().tobytes() == want.tobytes()
    # Kernels a small launch's Python callable calls run as their twins too.
    @rm.kernel
    def doubled(x):
        for i in prange(x.shape[0]):
            x[i] *= 2.0

    rm.launch(lambda v: doubled(v), out, name="glue", bytes=out.nbytes).wait()
    assert doubled._serial.signatures and not doubled.dispatcher.signatures
    assert out.get().tobytes() == (2 * want).tobytes()
    # A serial kernel is its own twin.
    x = np.ones((2, 2))
    assert not row_sums_kernel.has_serial
    assert row_sums_kernel.serial_entry_point(x, np.ones(2)) is row_sums_kernel.entry_point(x, np.ones(2))


# Source without a file (as typed at a prompt): not cached, so every run compiles it and the
# chunk function's signatures are what the kernel and its twin asked for.
_SQUARES = """
@chunk
def squares_chunk(a, out, per, t):
    for i in range(t * per, min(a.shape[0], (t + 1) * per)):
        for j in range(a.shape[1]):
            out[i, j] = a[i, j] * a[i, j]

@kernel
def squares_kernel(a, out, nchunk):
    per = (a.shape[0] + nchunk - 1) // nchunk
    for t in prange(nchunk):
        squares_chunk(a, out, per, np.uintp(t))
"""


def test_a_chunk_body_compiles_once_for_the_kernel_and_its_twin():
    # The parallel kernel and its serial twin call the same chunk function with the same types
    # (the prange index passed as np.uintp): one compilation of the body between them.
    space = {"chunk": chunk, "kernel": rm.kernel, "prange": prange, "np": np}
    exec(compile(_SQUARES, "<squares>", "exec"), space)
    squares_kernel, _squares_chunk = space["squares_kernel"], space["squares_chunk"]
    assert type(_squares_chunk._cache).__name__ == "NullCache"  # compiled afresh in every run
    a = np.arange(35.0).reshape(7, 5)
    got = []
    for call in (squares_kernel.entry_point, squares_kernel.serial_entry_point):
        out = np.full((7, 5), -1.0)
        call(a, out, 3)(a, out, 3)
        got.append(out)
    assert squares_kernel.dispatcher.signatures and squares_kernel._serial.signatures
    assert len(_squares_chunk.signatures) == 1, _squares_chunk.signatures
    assert np.array_equal(got[0], a * a) and np.array_equal(got[1], a * a)


def test_memory_bound_launches_up_to_a_mebibyte_run_the_serial_twin():
    # Past INLINE_BYTES, a launch doing at most one flop per four bytes, or said to be streaming,
    # still runs on one thread up to STREAM_INLINE_BYTES; one with more flops, or unknown flops,
    # runs the parallel kernel.
    from rocmath.launch import INLINE_BYTES, STREAM_INLINE_BYTES

    def fresh_scale():  # a kernel of its own each time: nothing compiled yet
        @rm.kernel
        def scale(x):
            for i in prange(x.shape[0]):
                x[i] *= 3.0

        return scale

    x = rm.to_device(np.arange(8.0))
    scale = fresh_scale()
    for nbytes in (INLINE_BYTES + 1, STREAM_INLINE_BYTES):
        task = rm.launch(scale, x, name="scale", bytes=nbytes, flops=nbytes / 4)
        task.wait()
        assert scale._serial.signatures and not scale.dispatcher.signatures
    larger = ((STREAM_INLINE_BYTES + 1, 1.0), (STREAM_INLINE_BYTES, STREAM_INLINE_BYTES / 3), (INLINE_BYTES + 1, 0))
    for nbytes, flops in larger:
        scale_again = fresh_scale()
        rm.launch(scale_again, x, name="scale", bytes=nbytes, flops=flops).wait()
        assert scale_again.dispatcher.signatures and scale_again._serial is None
    # A streaming launch (Level 2: a few flops per element, complex ones too) whatever its flops,
    # up to STREAM_INLINE_BYTES; past it, parallel.
    streaming = fresh_scale()
    rm.launch(streaming, x, name="scale", bytes=STREAM_INLINE_BYTES, flops=STREAM_INLINE_BYTES, streaming=True).wait()
    assert streaming._serial.signatures and not streaming.dispatcher.signatures
    streaming = fresh_scale()
    rm.launch(streaming, x, name="scale", bytes=STREAM_INLINE_BYTES + 1, flops=1.0, streaming=True).wait()
    assert streaming.dispatcher.signatures and streaming._serial is None
    assert x.get().tobytes() == (np.arange(8.0) * 3.0**7).tobytes()


def test_the_libraries_have_no_parallel_helpers_outside_kernels():
    # A parallel njit function called from a kernel would make the kernel's serial twin enter a
    # parallel region (and numba's cache drops the thread pool's start from code linking it): the
    # libraries' parallel loops are all kernels' own (helpers with prange loops are inlined).
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    from rocmath.kernel import Kernel

    modules = []
    for name in ("rocmath", "rocmath.blas", "rocmath.solver", "rocmath.fft", "rocmath.sparse"):
        package = importlib.import_module(name)
        for info in pkgutil.walk_packages(package.__path__, name + "."):
            try:
                modules.append(importlib.import_module(info.name))
            except ImportError:  # an optional dependency (mpi4py, dask...)
                continue
    kernels = {id(v.dispatcher) for m in modules for v in vars(m).values() if isinstance(v, Kernel)}
    helpers = [f"{m.__name__}.{k}" for m in modules for k, v in vars(m).items()
               if isinstance(v, CPUDispatcher) and v.targetoptions.get("parallel") and id(v) not in kernels]
    assert len(kernels) > 100
    assert helpers == []


def test_serial_twins_cache_apart_from_their_kernels():
    # numba's cache files are named after the function and do not record compile options:
    # a twin sharing its kernel's files would load the parallel code, or the parallel kernel its.
    from rocmath import _kernels

    k = _kernels.fill_flat
    x = np.zeros(4)
    k.serial_entry_point(x, 1.0)
    parallel, serial = k.dispatcher._cache._cache_file, k._serial._cache._cache_file
    assert parallel._index_path != serial._index_path
    assert serial._index_path.startswith(k.dispatcher._cache._cache_path)


def test_a_cached_twin_linking_a_cached_parallel_helper_runs_first_in_a_new_process(tmp_path):
    # numba's cache records the thread pool's start in code with prange loops, not in code that
    # links a parallel function loaded from the cache: a kernel's serial twin calling a parallel
    # helper, compiled where the helper came from the cache, then loaded first thing in a new
    # process, crashed it.  Kernels start the pool before they run.
    import subprocess
    import sys

    (tmp_path / "kernels_with_helper.py").write_text(
        "import numba, numpy as np\n"
        "from numba import prange\n"
        "import rocmath as rm\n"
        "@numba.njit(parallel=True, cache=True)\n"
        "def helper(x):\n"
        "    for i in prange(x.shape[0]):\n"
        "        x[i] += 1.0\n"
        "@rm.kernel\n"
        "def calls_helper(x):\n"
        "    helper(x)\n"
        "    for i in prange(x.shape[0]):\n"
        "        x[i] *= 2.0\n"
    )
    run = ("import numpy as np, rocmath as rm, kernels_with_helper as m; x = rm.zeros(4); "
           "rm.launch(m.calls_helper, x, name='k', bytes=32).wait(); print(x.get().sum())")
    # (the helper compiled for the types the twin passes it: a non-contiguous view)
    steps = ["import numpy as np, kernels_with_helper as m; m.helper(np.zeros(8)[::2])", run, run]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), *sys.path]), NUMBA_CACHE_DIR=str(tmp_path),
               PYTHONWARNINGS="ignore")
    for code in steps:  # the helper cached; the twin compiled and cached; the twin loaded
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "8.0"


def test_kernel_decorator_options():
    @rm.kernel(parallel=False, fastmath=False)
    def divide(x, y, out):
        for i in range(x.shape[0]):
            out[i] = x[i] / y[i]

    x, y, out = rm.to_device(np.array([1.0, -1.0, 0.0])), rm.zeros(3), rm.empty(3)
    rm.launch(divide, x, y, out, name="divide").wait()  # numpy's error model: no exception
    got = out.get()
    assert got[0] == np.inf and got[1] == -np.inf and np.isnan(got[2])


def test_kernels_are_parallel_only_in_their_prange_loops():
    # numba's parallel=True would also run np.zeros, array expressions and array reductions as
    # parallel regions of their own (each waking the thread team; an implicit reduction's bits
    # depend on the thread count): a kernel's only region is its prange loop.
    source = (
        "def twice_then_sum(x, out):\n"
        "    t = np.zeros(x.shape[0] + 1)\n"  # (not fused with the loop)
        "    for i in prange(x.shape[0]):\n"
        "        t[i] = 2 * x[i]\n"
        "    out[0] = (t * 3).sum()\n"
    )
    scope = {"np": np, "prange": prange}
    exec(source, scope)  # no source file: compiled here, not loaded from the cache (no diagnostics then)
    k = rm.kernel(scope["twice_then_sum"])
    x, out = np.arange(1000.0), np.zeros(1)
    k.entry_point(x, out)(x, out)
    assert out[0] == 6 * x.sum()
    (sig,) = k.dispatcher.signatures
    assert k.dispatcher.get_metadata(sig)["parfor_diagnostics"].count_parfors() == 1


def test_vectorizer_options_apply_to_their_kernel_only():
    # slp=True / loops=False switch LLVM's vectorizers for that kernel's compilation, then restore them.
    config = numba.core.config
    before = config.SLP_VECTORIZE, config.LOOP_VECTORIZE
    scope = {"prange": prange}
    exec("def lanes(a, out):\n"
         "    for i in prange(a.shape[0]):\n"
         "        for s in range(8):\n"
         "            out[i, s] = a[i, s] * 2 - a[i, 7 - s]\n", scope)
    k = rm.kernel(slp=True, loops=False)(scope["lanes"])
    a = np.arange(80.0).reshape(10, 8)
    out = np.zeros_like(a)
    k(a, out)
    assert np.array_equal(out, a * 2 - a[:, ::-1])
    assert before == (config.SLP_VECTORIZE, config.LOOP_VECTORIZE)


def test_serial_twins_vectorise_as_their_parallel_kernels():
    # numba compiles a prange body with its arrays noalias; the twin is compiled so too, else LLVM
    # must keep each lane's load of V after the store to W before it and leaves a lane loop scalar
    # (lane kernels ran about 2x slower as twins).  Both give the sequential bits.
    scope = {"prange": prange}
    exec("def lanes(W, V, n):\n"
         "    for t in prange(W.shape[0]):\n"
         "        for i in range(n):\n"
         "            for s in range(8):\n"
         "                W[t, i * 8 + s] = W[t, i * 8 + s] * V[t, s] - V[t, 7 - s]\n", scope)
    k = rm.kernel(contiguous=True, slp=True, loops=False)(scope["lanes"])
    rng = np.random.default_rng(4)
    w, v = rng.standard_normal((3, 40)), rng.standard_normal((3, 8))
    want = (w.reshape(3, 5, 8) * v[:, None, :] - v[:, None, ::-1]).reshape(3, 40)
    outs = []
    for entry in (k.entry_point, k.serial_entry_point):
        W = w.copy()
        entry(W, v, 5)(W, v, 5)
        outs.append(W)
    assert outs[0].tobytes() == outs[1].tobytes() == want.tobytes()
    for dispatcher in (k.dispatcher, k._serial):
        (sig,) = dispatcher.signatures
        llvm = dispatcher.inspect_llvm(sig)
        assert re.search(r"fmul <\d+ x double>", llvm), dispatcher  # the lane loop as vector operations


def test_rocmath_kernels_cache_outside_the_package(tmp_path, monkeypatch):
    # Cache files beside an installed package survive `pip uninstall` and then shadow an
    # editable install as a namespace package, so rocmath's kernels cache elsewhere.
    import os

    from rocmath import _kernels
    from rocmath.kernel import cache_dir

    path = _kernels.fill_flat.dispatcher._cache._cache_path
    assert path.startswith(cache_dir())
    assert not path.startswith(os.path.dirname(_kernels.__file__))
    monkeypatch.setenv("ROCMATH_CACHE_DIR", str(tmp_path))
    assert cache_dir() == str(tmp_path)


def _save_entries(path, who, count, barrier):
    from numba.core.caching import IndexDataCacheFile

    import rocmath.kernel  # noqa: F401  (a spawned process: rocmath's cache saves are locked once imported)

    index = IndexDataCacheFile(path, "fn-1.py311", "stamp")
    barrier.wait()
    for i in range(count):
        index.save((who, i), (who, i))


def test_processes_saving_to_one_cache_index_keep_every_entry_with_its_own_code(tmp_path, monkeypatch):
    # numba picks a data file per new entry from the index it read: processes saving at once (workers
    # compiling one function for different types on a cold cache) picked the same file, and the index then
    # mapped a signature to another's code, for every later process (3 x 60 saves: 35-40 wrong, 77-96 lost).
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(3)
    monkeypatch.setenv("ROCMATH_CACHE_DIR", str(tmp_path))  # (inherited by the spawned processes)
    workers = [ctx.Process(target=_save_entries, args=(str(tmp_path / "k"), w, 60, barrier)) for w in range(3)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(120)
    assert [w.exitcode for w in workers] == [0, 0, 0]
    from numba.core.caching import IndexDataCacheFile

    index = IndexDataCacheFile(str(tmp_path / "k"), "fn-1.py311", "stamp")
    assert [index.load((w, i)) for w in range(3) for i in range(60)] == [(w, i) for w in range(3) for i in range(60)]


def test_a_kernels_cache_stamp_covers_the_rocmath_files_its_module_uses(tmp_path, monkeypatch):
    # numba stamps a cache entry with its function's own file: gemv (blas/_kernels_l2.py) inlines
    # _dot_block from _kernels_l1.py, and would have loaded its old code after only that file
    # changed.  The stamp is the contents of every rocmath file the module uses.
    import pathlib
    import sys

    from rocmath.blas import _kernels_l1, _kernels_l2

    kmod = sys.modules["rocmath.kernel"]  # (rocmath.kernel the attribute is the decorator)

    files = dict(kmod._rocmath_sources(_kernels_l2.__name__))
    assert {_kernels_l2.__name__, _kernels_l1.__name__, "rocmath.kernel"} <= set(files)
    assert kmod._rocmath_sources("numpy") == ()
    locator = _kernels_l2.gemv_flat.dispatcher._cache._impl.locator
    assert type(locator).__name__ == "RocmathCacheLocator"
    stamp = locator.get_source_stamp()
    assert stamp == locator.get_source_stamp()

    def stamp_with(text):
        copy = tmp_path / f"l1_{len(list(tmp_path.iterdir()))}.py"
        copy.write_text(text)
        moved = tuple((name, str(copy) if name == _kernels_l1.__name__ else path) for name, path in files.items())
        monkeypatch.setitem(kmod._sources, _kernels_l2.__name__, tuple(sorted(moved)))
        return locator.get_source_stamp()

    source = pathlib.Path(files[_kernels_l1.__name__]).read_text()
    assert stamp_with(source) == stamp  # the same contents elsewhere: the same stamp
    assert stamp_with(source + "\n# changed\n") != stamp


_ONE_KERNEL = '''
import numpy as np
from numba import prange

import rocmath as rm


@rm.kernel
def twice_plus(x, y):
    for i in prange(x.shape[0]):
        y[i] = 2 * x[i] + np.sin(x[i]) * np.cos(y[i]) - np.exp(-abs(x[i]))
'''


def _compile_one_kernel(folder, barrier, counts):
    import sys

    import numpy as np
    from numba.core import event

    sys.path.insert(0, folder)
    import one_kernel

    compiled = []

    class Count(event.Listener):
        def on_start(self, ev):
            pass

        def on_end(self, ev):
            fn = getattr(ev.data["dispatcher"], "py_func", None)
            if getattr(fn, "__module__", "") == "one_kernel":
                compiled.append(fn.__qualname__)

    event.register("numba:compile", Count())
    x = np.linspace(0, 1, 100)
    y = np.zeros(100)
    barrier.wait()
    one_kernel.twice_plus(x, y)
    counts.put((len(compiled), float(y.sum())))


def test_processes_on_a_cold_cache_compile_a_kernel_once(tmp_path, monkeypatch):
    # pytest-xdist workers and MPI ranks starting on an empty cache each compiled the same kernel at the
    # same time (the suite's cold run: 22 s of gemm_small_serial twice); one compiles, the others wait
    # for its lock and load what it saved.
    import multiprocessing

    (tmp_path / "one_kernel.py").write_text(_ONE_KERNEL)
    ctx = multiprocessing.get_context("spawn")
    barrier, counts = ctx.Barrier(3), ctx.Queue()
    monkeypatch.setenv("ROCMATH_CACHE_DIR", str(tmp_path / "cache"))  # (inherited by the spawned processes)
    workers = [ctx.Process(target=_compile_one_kernel, args=(str(tmp_path), barrier, counts)) for _ in range(3)]
    for w in workers:
        w.start()
    results = [counts.get(timeout=300) for _ in workers]
    for w in workers:
        w.join(60)
    assert [w.exitcode for w in workers] == [0, 0, 0]
    assert sorted(c for c, _ in results) == [0, 0, 1]  # one compilation, two loads of it
    assert len({s for _, s in results}) == 1
