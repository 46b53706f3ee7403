"""Bench cases of rocmath.fft (discovered by ``rocmath.bench``): rocFFT plans against scipy.fft.

Each case builds its plan and device data once, then times ``rocfft_execute`` on a stream
(plus the synchronize) against ``scipy.fft`` with ``workers=2`` on the same host data in the
same run.  GFLOP/s use FFT's flop convention, ``5 N log2 N`` per complex transform (half
of it for real ones).  The plan-creation cases time building a batched 4096-point plan,
uncached and then from the plan cache, against one SciPy transform of the same batch.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.fft

import rocmath as rm
from rocmath.bench import Problem, bench_case

from ._api import (
    execute,
    execution_info_create,
    execution_info_set_stream,
    get_plan_cache,
    plan_create,
)
from ._types import Precision, ResultPlacement, TransformType

SEED = 20240605
POINTS = 1 << 22  # points per batched 1D case
WORKERS = 2


def _case(lengths: tuple[int, ...], batch: int, tt: TransformType, precision: Precision = Precision.double,
          label: str | None = None) -> Problem:
    """One out-of-place plan on contiguous data, ``lengths`` fastest first."""
    rng = np.random.default_rng(SEED)
    shape = (batch, *reversed(lengths)) if batch > 1 else tuple(reversed(lengths))
    axes = tuple(range(len(shape) - len(lengths), len(shape)))
    real_dt = np.float32 if precision == Precision.single else np.float64
    cplx_dt = np.complex64 if precision == Precision.single else np.complex128
    if tt == TransformType.real_forward:
        x = rng.standard_normal(shape).astype(real_dt)
        out_shape = (*shape[:-1], shape[-1] // 2 + 1)
        out_dt: Any = cplx_dt

        def reference() -> np.ndarray:
            return scipy.fft.rfftn(x, axes=axes, workers=WORKERS)
    else:
        x = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(cplx_dt)
        out_shape, out_dt = shape, cplx_dt

        def reference() -> np.ndarray:
            return scipy.fft.fftn(x, axes=axes, workers=WORKERS)

    s = rm.Stream()
    plan = plan_create(ResultPlacement.notinplace, tt, precision, len(lengths), lengths, batch)
    info = execution_info_create()
    execution_info_set_stream(info, s)
    dx = rm.to_device(x, s)
    dy = rm.empty(out_shape, out_dt)

    def run() -> rm.DeviceArray:
        execute(plan, [dx], [dy], info)
        return dy

    def teardown() -> None:
        s.synchronize()
        s.destroy()

    n = math.prod(lengths)
    flops = 5.0 * n * math.log2(max(n, 2)) * batch * (0.5 if tt.is_real else 1.0)
    moved = x.nbytes + math.prod(out_shape) * np.dtype(out_dt).itemsize
    tol = (2e-5 if precision == Precision.single else 1e-12) * max(1.0, math.log2(n))
    kind = "r2c" if tt.is_real else "c2c"
    size = "x".join(map(str, reversed(lengths)))
    return Problem(run=run, reference=reference, flops=flops, bytes=moved, stream=s, tol=tol,
                   label=label or f"{kind} {size} x{batch} {np.dtype(out_dt).name}", teardown=teardown)


_POW2 = [256, 512, 1024, 2048, 4096]


@bench_case("fft.c2c_1d_batched_pow2", sizes={"quick": [4096], "full": _POW2})
def c2c_1d_batched_pow2(n: int) -> Problem:
    """Batched 1D complex double transforms, 2^22 points in all, vs scipy.fft.fft (workers=2)."""
    return _case((n,), POINTS // n, TransformType.complex_forward)


@bench_case("fft.c2c_1d_batched_pow2_single", sizes={"full": [1024, 4096]})
def c2c_1d_batched_pow2_single(n: int) -> Problem:
    """Batched 1D complex single transforms, 2^22 points in all, vs scipy.fft.fft (workers=2)."""
    return _case((n,), POINTS // n, TransformType.complex_forward, Precision.single)


@bench_case("fft.c2c_1d_batched_smooth_prime", sizes={"quick": [1000], "full": [1000, 1536, 2187, 4099]})
def c2c_1d_batched_smooth_prime(n: int) -> Problem:
    """Batched 1D complex double transforms of smooth (1000, 1536, 2187) and prime (4099, Bluestein)
    lengths, about 2^22 points, vs scipy.fft.fft (workers=2)."""
    return _case((n,), max(1, POINTS // n), TransformType.complex_forward)


@bench_case("fft.c2c_2d", sizes={"quick": [1024], "full": [1024]})
def c2c_2d(n: int) -> Problem:
    """2D complex double n x n vs scipy.fft.fft2 (workers=2)."""
    return _case((n, n), 1, TransformType.complex_forward)


@bench_case("fft.c2c_3d", sizes={"quick": [128], "full": [128]})
def c2c_3d(n: int) -> Problem:
    """3D complex double n^3 vs scipy.fft.fftn (workers=2)."""
    return _case((n, n, n), 1, TransformType.complex_forward)


@bench_case("fft.r2c_1d_batched", sizes={"quick": [4096], "full": [1024, 4096, 1000]})
def r2c_1d_batched(n: int) -> Problem:
    """Batched 1D real-to-complex double transforms, about 2^22 points, vs scipy.fft.rfft (workers=2)."""
    return _case((n,), max(1, POINTS // n), TransformType.real_forward)


@bench_case("fft.r2c_2d", sizes={"quick": [1024], "full": [1024]})
def r2c_2d(n: int) -> Problem:
    """2D real-to-complex double n x n vs scipy.fft.rfft2 (workers=2)."""
    return _case((n, n), 1, TransformType.real_forward)


@bench_case("fft.r2c_3d", sizes={"quick": [128], "full": [128]})
def r2c_3d(n: int) -> Problem:
    """3D real-to-complex double n^3 vs scipy.fft.rfftn (workers=2)."""
    return _case((n, n, n), 1, TransformType.real_forward)


def _plan_problem(n: int, cached: bool) -> Problem:
    batch = POINTS // n
    rng = np.random.default_rng(SEED)
    x = rng.standard_normal((batch, n)) + 1j * rng.standard_normal((batch, n))
    cache = get_plan_cache()

    def run() -> int:
        if not cached:
            cache.clear()
        plan = plan_create(ResultPlacement.notinplace, TransformType.complex_forward, Precision.double, 1, [n],
                           batch)
        return len(plan.spec.lengths)

    return Problem(run=run, reference=lambda: (scipy.fft.fft(x, workers=WORKERS), 1)[1],
                   check=lambda a, e: 0.0 if a == e else math.inf, tol=0.0,
                   label=f"{n} x{batch} {'cached' if cached else 'built'} (reference: one scipy.fft.fft)")


@bench_case("fft.plan_create_4096", sizes={"quick": [4096], "full": [4096]})
def plan_create_4096(n: int) -> Problem:
    """rocfft_plan_create of a batched 4096-point plan, built from scratch (cache cleared) each call."""
    return _plan_problem(n, cached=False)


@bench_case("fft.plan_create_4096_cached", sizes={"quick": [4096], "full": [4096]})
def plan_create_4096_cached(n: int) -> Problem:
    """rocfft_plan_create of a batched 4096-point plan that is in the plan cache."""
    return _plan_problem(n, cached=True)
