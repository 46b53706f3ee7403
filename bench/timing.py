"""Timing helpers: interleaved A/B timing, medians and bootstrap confidence intervals.

The bench times a rocmath call (A, asynchronous: it must be followed by a
synchronize) against a host reference (B) in one interleaved loop, A B A B ...,
so that machine noise (frequency changes, other processes) hits both sides alike.
Results are summarised by the median and a bootstrap confidence interval of the
median (as rocFFT's perf tooling does) rather than mean and standard deviation,
which a single outlier can dominate.
"""

from __future__ import annotations

import functools
import gc
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import prange

__all__ = ["WARM_BUDGET_NS", "WARM_CALLS", "Interleaved", "Stats", "bootstrap_ci", "copy_bandwidth",
           "measure_copy_bandwidth", "median", "ratio_ci", "time_call", "time_interleaved", "warm_up"]

Clock = Callable[[], int]

#: Bootstrap resamples; 2000 keeps a 95 % interval stable to about a percent and costs ~1 ms.
N_BOOT = 2000


def median(samples: Sequence[float]) -> float:
    """The median of ``samples`` (the mean of the two middle values for an even count).

    Raises
    ------
    ValueError
        If ``samples`` is empty.
    """
    if len(samples) == 0:
        raise ValueError("median of no samples")
    return float(np.median(np.asarray(samples, dtype=np.float64)))


def bootstrap_ci(samples: Sequence[float], confidence: float = 0.95, n_boot: int = N_BOOT,
                 seed: int = 0) -> tuple[float, float]:
    """Percentile-bootstrap confidence interval of the median of ``samples``.

    Parameters
    ----------
    samples
        The measurements (at least one).
    confidence
        The coverage of the interval, in (0, 1).
    n_boot
        Number of resamples.
    seed
        Seed of the resampling, fixed so that a report is reproducible from its samples.

    Returns
    -------
    (low, high)
        The interval; both equal the sample when there is only one.
    """
    x = np.asarray(samples, dtype=np.float64)
    if x.size == 0:
        raise ValueError("bootstrap of no samples")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    rng = np.random.default_rng(seed)
    meds = np.median(x[rng.integers(0, x.size, size=(n_boot, x.size))], axis=1)
    alpha = (1.0 - confidence) / 2.0
    lo, hi = np.quantile(meds, [alpha, 1.0 - alpha])
    return float(lo), float(hi)


def ratio_ci(numerator: Sequence[float], denominator: Sequence[float], confidence: float = 0.95,
             n_boot: int = N_BOOT, seed: int = 0) -> tuple[float, float]:
    """Bootstrap confidence interval of ``median(numerator) / median(denominator)``.

    The two sides are resampled independently, so the interval also holds when they
    were not measured in pairs.
    """
    a = np.asarray(numerator, dtype=np.float64)
    b = np.asarray(denominator, dtype=np.float64)
    if a.size == 0 or b.size == 0:
        raise ValueError("ratio of no samples")
    rng = np.random.default_rng(seed)
    ma = np.median(a[rng.integers(0, a.size, size=(n_boot, a.size))], axis=1)
    mb = np.median(b[rng.integers(0, b.size, size=(n_boot, b.size))], axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = ma / mb
    alpha = (1.0 - confidence) / 2.0
    lo, hi = np.quantile(ratios, [alpha, 1.0 - alpha])
    return float(lo), float(hi)


@dataclass(frozen=True)
class Stats:
    """Summary of repeated timings, in nanoseconds.

    Attributes
    ----------
    samples_ns
        Every measurement, in the order taken.
    median_ns, min_ns, max_ns
        Their median, minimum and maximum.
    ci_low_ns, ci_high_ns
        The bootstrap 95 % confidence interval of the median.
    """

    samples_ns: tuple[int, ...]
    median_ns: float
    min_ns: float
    max_ns: float
    ci_low_ns: float
    ci_high_ns: float

    @classmethod
    def from_samples(cls, samples_ns: Sequence[int], confidence: float = 0.95, seed: int = 0) -> Stats:
        """Summarise ``samples_ns`` (at least one measurement)."""
        lo, hi = bootstrap_ci(samples_ns, confidence, seed=seed)
        return cls(tuple(int(s) for s in samples_ns), median(samples_ns), float(min(samples_ns)),
                   float(max(samples_ns)), lo, hi)

    @property
    def spread(self) -> float:
        """Half-width of the confidence interval relative to the median (0.05 is +-5 %)."""
        if self.median_ns <= 0:
            return math.inf if self.ci_high_ns > self.ci_low_ns else 0.0
        return max(self.median_ns - self.ci_low_ns, self.ci_high_ns - self.median_ns) / self.median_ns

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every field."""
        return {"median_ns": self.median_ns, "min_ns": self.min_ns, "max_ns": self.max_ns,
                "ci_low_ns": self.ci_low_ns, "ci_high_ns": self.ci_high_ns, "n": len(self.samples_ns),
                "samples_ns": list(self.samples_ns)}


@dataclass(frozen=True)
class Interleaved:
    """What :func:`time_interleaved` measured.

    Attributes
    ----------
    a, b
        Timings of each side.
    ratio
        ``b.median_ns / a.median_ns``: above 1 means A is faster.
    ratio_ci
        Bootstrap 95 % confidence interval of ``ratio``.
    """

    a: Stats
    b: Stats
    ratio: float
    ratio_ci: tuple[float, float]


def _none() -> None:
    return None


def time_call(fn: Callable[[], Any], sync: Callable[[], Any] | None = None,
              clock: Clock = time.perf_counter_ns) -> tuple[int, Any]:
    """Time one call of ``fn`` followed by ``sync`` (the wait for its asynchronous work).

    Returns
    -------
    (nanoseconds, value)
        The elapsed time and what ``fn`` returned.
    """
    s = sync or _none
    t0 = clock()
    value = fn()
    s()
    return clock() - t0, value


#: Untimed rounds a warm-up runs beyond its minimum while they take less than
#: :data:`WARM_BUDGET_NS` in all (calls of microseconds get them all, calls of milliseconds only
#: the minimum): the interpreter specializes a Python path's bytecode only after it ran some
#: times (a tiny saxpy took 20 us on its first timed calls after 2 warm-ups, 6 us from the 12th
#: on), and a warm time is the steady state's.
WARM_CALLS = 50
WARM_BUDGET_NS = 20_000_000


def warm_up(calls: Sequence[Callable[[], Any]], minimum: int, clock: Clock = time.perf_counter_ns) -> int:
    """Run ``calls`` in turn, ``minimum`` rounds and then more, up to :data:`WARM_CALLS`, while
    the warm-up took less than :data:`WARM_BUDGET_NS`; returns the rounds run."""
    end = clock() + WARM_BUDGET_NS
    done = 0
    while done < minimum or (done < WARM_CALLS and clock() < end):
        for call in calls:
            call()
        done += 1
    return done


def time_interleaved(fn_a: Callable[[], Any], fn_b: Callable[[], Any], repeats: int,
                     sync: Callable[[], Any] | None = None, *, sync_b: Callable[[], Any] | None = None,
                     warmup: int = 0, after_a: Callable[[Any], Any] | None = None,
                     before_a: Callable[[], Any] | None = None, clock: Clock = time.perf_counter_ns,
                     disable_gc: bool = True) -> Interleaved:
    """Time ``fn_a`` and ``fn_b`` alternately: A B A B ... (``repeats`` pairs).

    Parameters
    ----------
    fn_a, fn_b
        Callables without arguments; ``fn_a`` is usually the rocmath call, ``fn_b`` the
        host reference.
    repeats
        Number of timed A B pairs (at least 1).
    sync, sync_b
        Called after ``fn_a`` (respectively ``fn_b``) inside the timed region, to wait
        for asynchronous work: e.g. ``stream.synchronize``.
    warmup
        Untimed A B pairs run first.
    after_a
        Called with ``fn_a``'s return value after each timed A, outside the timed
        region (to collect per-run profiles or keep the last result).
    before_a
        Called before each A (warm-up ones too), outside the timed region: to put back
        inputs the previous A overwrote (and wait for that).
    clock
        An integer nanosecond clock (``time.perf_counter_ns``; tests pass a fake one).
    disable_gc
        Turn the cyclic garbage collector off while timing, as :mod:`timeit` does, so
        that a collection does not land in one side's samples.

    Returns
    -------
    Interleaved
        Statistics of both sides and the ratio ``median(b) / median(a)``.
    """
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    sa, sb, prepare = sync or _none, sync_b or _none, before_a or _none
    for _ in range(warmup):
        prepare()
        fn_a()
        sa()
        fn_b()
        sb()
    ta: list[int] = []
    tb: list[int] = []
    gc_was_on = gc.isenabled()
    if disable_gc:
        gc.disable()
    try:
        for _ in range(repeats):
            prepare()
            t0 = clock()
            value = fn_a()
            sa()
            t1 = clock()
            ta.append(t1 - t0)
            if after_a is not None:
                after_a(value)
            t0 = clock()
            fn_b()
            sb()
            tb.append(clock() - t0)
    finally:
        if gc_was_on:
            gc.enable()
    a, b = Stats.from_samples(ta), Stats.from_samples(tb)
    ratio = b.median_ns / a.median_ns if a.median_ns > 0 else math.inf
    return Interleaved(a, b, ratio, ratio_ci(tb, ta))


#: Elements (float64) of the copy measuring the machine's bandwidth: 2 x 128 MiB, far past any cache.
COPY_ELEMENTS = 1 << 24


@functools.cache
def copy_bandwidth(repeats: int = 9) -> float:
    """The machine's copy bandwidth in GB/s, measured once per process
    (:func:`measure_copy_bandwidth`)."""
    return measure_copy_bandwidth(repeats)


def measure_copy_bandwidth(repeats: int = 9) -> float:
    """The machine's copy bandwidth in GB/s (bytes read plus bytes written per second) now:
    the best of ``repeats`` multi-threaded copies of 128 MiB (the bandwidth the machine can
    give, whatever else runs at that moment).

    Memory-bound cases report their rate as a fraction of it, as STREAM's copy is the usual
    ceiling for streaming kernels, measured beside each case's timed calls: a shared 2-vCPU VM
    gave 32-38 GB/s for minutes, then 65-68 (one bench run measured 68 before its cases and its
    kernels moved 33-36 GB/s through them, as the copy did then)."""
    src = np.ones(COPY_ELEMENTS)
    dst = np.empty_like(src)
    copy = _copy_kernel()
    copy(src, dst)  # compile (or load) and fault the pages in
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter_ns()
        copy(src, dst)
        times.append(time.perf_counter_ns() - t0)
    return 2 * src.nbytes / min(times)  # bytes/ns == GB/s


@functools.cache
def _copy_kernel() -> Any:
    from rocmath.kernel import kernel

    return kernel(_copy)


def _copy(src: np.ndarray, dst: np.ndarray) -> None:
    for i in prange(src.shape[0]):
        dst[i] = src[i]
