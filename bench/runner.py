"""Run bench cases: cold call, warm-up, interleaved timing, kernel time, correctness.

For each (case, size) the runner

1. builds the problem (``setup``), untimed;
2. times the first rocmath call plus its synchronize (none for a ``synchronous`` call, whose
   stream is checked to be idle instead): the *cold* time, which includes
   numba compilation (or loading it from numba's cache) and first-touch costs;
3. times the reference's first call and compares the two results;
4. runs ``warmup`` untimed A B pairs (more, up to ``WARM_CALLS``, while they take under
   ``WARM_BUDGET_NS``: a Python path reaches its steady speed only after some calls), then
   ``repeats`` timed pairs interleaved
   A B A B (A: rocmath call + synchronize, B: reference);
5. runs ``KERNEL_ROUNDS`` more calls inside ``rocmath.profile()``, each call's kernel-only
   time from its :class:`rocmath.LaunchRecord` s (a pass of its own: recording them costs the
   call time, 0.45 us of a 4 us tiny call, which the timed calls must not pay), each after a
   reference call as in the timed pairs, so that its kernel finds the caches as theirs did;
6. checks the last warm result again (a warm path can differ from the first call).
"""

from __future__ import annotations

import contextlib
import math
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import rocmath

from .case import BenchCase, Problem, default_tol, to_host
from .timing import Clock, Stats, _none, measure_copy_bandwidth, time_call, time_interleaved, warm_up

__all__ = ["DEFAULT_REPEATS", "DEFAULT_WARMUP", "CaseResult", "run_case", "run_cases"]

DEFAULT_REPEATS = 21
DEFAULT_WARMUP = 2
#: Copies of 128 MiB (the best counts) just before and just after a memory-bound case's timed calls.
COPY_REPEATS = 5

#: Calls of the pass that records kernel-only times.
KERNEL_ROUNDS = 7


@dataclass
class CaseResult:
    """The measurements of one case at one size (times in nanoseconds).

    ``ok`` is True when the case ran and ``max_rel_err <= tol``; ``error`` holds the
    exception text when it did not run through.
    """

    case: str
    size: Any
    label: str
    suite: str | None = None
    flops: float = 0.0
    bytes: float = 0.0
    setup_ns: int | None = None
    cold_ns: int | None = None
    warm: Stats | None = None
    kernel: Stats | None = None
    ref_cold_ns: int | None = None
    reference: Stats | None = None
    ratio: float | None = None
    ratio_ci: tuple[float, float] | None = None
    max_rel_err: float | None = None
    tol: float | None = None
    ok: bool = False
    error: str | None = None
    memory_bound: bool = False
    copy_fraction: float | None = None  # memory-bound cases: GB/s over the copy bandwidth beside them
    copy_gbs: float | None = None  # that copy bandwidth (GB/s, read + write)

    @property
    def throughput(self) -> tuple[float, str] | None:
        """``(value, "GFLOP/s")`` when the case counts flops (and is not memory bound), else
        ``(value, "GB/s")`` when it counts bytes, from the warm median; None when it counts
        neither."""
        if self.warm is None or self.warm.median_ns <= 0:
            return None
        if self.flops > 0 and not (self.memory_bound and self.bytes > 0):
            return self.flops / self.warm.median_ns, "GFLOP/s"  # flop/ns == GFLOP/s
        if self.bytes > 0:
            return self.bytes / self.warm.median_ns, "GB/s"
        return None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (sizes that JSON cannot hold become their ``repr``)."""
        tp = self.throughput
        return {
            "case": self.case, "suite": self.suite, "size": _jsonable(self.size), "label": self.label,
            "flops": self.flops, "bytes": self.bytes, "setup_ns": self.setup_ns, "cold_ns": self.cold_ns,
            "warm": None if self.warm is None else self.warm.to_dict(),
            "kernel": None if self.kernel is None else self.kernel.to_dict(),
            "reference_cold_ns": self.ref_cold_ns,
            "reference": None if self.reference is None else self.reference.to_dict(),
            "ratio": _finite(self.ratio),
            "ratio_ci": None if self.ratio_ci is None else [_finite(v) for v in self.ratio_ci],
            "throughput": None if tp is None else tp[0], "throughput_unit": None if tp is None else tp[1],
            "max_rel_err": _finite(self.max_rel_err), "tol": _finite(self.tol), "ok": self.ok, "error": self.error,
            "memory_bound": self.memory_bound, "copy_fraction": _finite(self.copy_fraction),
            "copy_gbs": _finite(self.copy_gbs),
        }


def _finite(x: float | None) -> float | str | None:
    # JSON has no inf/nan: keep them as strings rather than writing invalid JSON.
    if x is None or math.isfinite(x):
        return x
    return str(x)


def _jsonable(x: Any) -> Any:
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    return repr(x)


def _sync_for(problem: Problem) -> Callable[[], None]:
    stream = problem.stream
    return stream.synchronize if stream is not None else rocmath.device_synchronize


def _timed_sync_for(problem: Problem) -> Callable[[], None]:
    """What the timer calls after each rocmath call: its synchronize, or nothing after a call that
    returns when its work is done (``synchronous``)."""
    if not problem.synchronous:
        return _sync_for(problem)
    if problem.stream is None:
        raise ValueError("a synchronous problem names its stream (checked to be idle after the calls)")
    return _none


def _check_done(problem: Problem) -> None:
    # A call declared synchronous must not leave work behind: its time would not include it.
    if problem.synchronous and not problem.stream.query():
        raise RuntimeError("run() is declared synchronous but left work on its stream")


def preparation(problem: Problem, sync: Callable[[], None]) -> Callable[[], None]:
    """What runs untimed before each warm call of ``problem``: its ``restore``, waited for."""
    restore = problem.restore
    if restore is None:
        return _none

    def prepare() -> None:
        restore()
        sync()

    return prepare


def kernel_times(run: Callable[[], Any], sync: Callable[[], Any], prepare: Callable[[], Any],
                 rounds: int, between: Callable[[], Any] = _none) -> list[int]:
    """The kernel-only time of each of ``rounds`` calls of ``run`` (nanoseconds, summed over its launch
    records; calls that launched nothing leave none); ``prepare``'s own work is not counted.  Each call
    follows a call of ``between`` (the reference: the timed calls' A B order, whose streams of data
    leave the next call's operands out of cache alike)."""
    out: list[int] = []
    with rocmath.profile() as records:
        for _ in range(rounds):
            between()
            prepare()
            seen = len(records)
            run()
            sync()
            new = records[seen:]
            if new:
                out.append(sum(r.end_ns - r.start_ns for r in new))
    return out


def run_case(case: BenchCase, size: Any, *, suite: str | None = None, repeats: int = DEFAULT_REPEATS,
             warmup: int = DEFAULT_WARMUP, clock: Clock = time.perf_counter_ns) -> CaseResult:
    """Benchmark ``case`` at ``size``; never raises for a failing case (see ``error``).

    Parameters
    ----------
    case, size
        What to run.
    suite
        Recorded in the result only.
    repeats
        Timed A B pairs.
    warmup
        Untimed A B pairs between the cold call and the timed ones.
    clock
        Integer nanosecond clock (tests pass a fake one).
    """
    res = CaseResult(case.name, size, str(size), suite)
    problem: Problem | None = None
    try:
        t0 = clock()
        problem = case.setup(size)
        res.setup_ns = clock() - t0
        if problem.label is not None:
            res.label = problem.label
        res.flops, res.bytes = float(problem.flops), float(problem.bytes)
        res.memory_bound = problem.memory_bound
        wait, sync = _sync_for(problem), _timed_sync_for(problem)
        fetch = problem.result or to_host

        res.cold_ns, value = time_call(problem.run, sync, clock)
        _check_done(problem)
        actual = fetch(value)
        res.ref_cold_ns, expected = time_call(problem.reference, None, clock)
        res.tol = float(problem.tol) if problem.tol is not None else default_tol(expected)
        err = float(problem.check(actual, expected))
        del actual, value

        prepare = preparation(problem, wait)
        warm_up((prepare, problem.run, sync, problem.reference), warmup, clock)

        # A memory-bound case's copy bandwidth is measured just before and after its timed calls:
        # the host's moves between states for minutes at a time (copy_fraction's divisor).
        copies = [measure_copy_bandwidth(COPY_REPEATS)] if problem.memory_bound else []
        last: list[Any] = [None]
        timed = time_interleaved(problem.run, problem.reference, repeats, sync, before_a=prepare, clock=clock,
                                 after_a=lambda v: last.__setitem__(0, v))
        res.warm, res.reference = timed.a, timed.b
        res.ratio, res.ratio_ci = timed.ratio, timed.ratio_ci
        _check_done(problem)
        err = max(err, float(problem.check(fetch(last[0]), expected)))
        kernel_ns = kernel_times(problem.run, sync, prepare, KERNEL_ROUNDS, problem.reference)
        if kernel_ns:
            res.kernel = Stats.from_samples(kernel_ns)
        res.max_rel_err = err
        res.ok = not math.isnan(err) and err <= res.tol
        if copies:
            copies.append(measure_copy_bandwidth(COPY_REPEATS))
            res.copy_gbs = max(copies)
            if res.bytes > 0 and res.warm is not None and res.warm.median_ns > 0:
                res.copy_fraction = res.bytes / res.warm.median_ns / res.copy_gbs
    except Exception as exc:
        res.error = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        res.ok = False
        with contextlib.suppress(Exception):  # clear the sticky error so the next case starts clean
            rocmath.device_synchronize()
    finally:
        if problem is not None and problem.teardown is not None:
            try:
                problem.teardown()
            except Exception as exc:
                res.ok = False
                res.error = res.error or f"teardown: {type(exc).__name__}: {exc}"
    return res


def run_cases(cases: Iterable[BenchCase], suite: str, *, repeats: int = DEFAULT_REPEATS,
              warmup: int = DEFAULT_WARMUP, on_result: Callable[[CaseResult], Any] | None = None,
              clock: Clock = time.perf_counter_ns) -> list[CaseResult]:
    """Run every size of each case's ``suite`` entry, in order.

    ``on_result`` is called with each result as soon as it is ready (the CLI prints
    table rows with it).
    """
    results = []
    for case in cases:
        for size in case.sizes.get(suite, ()):
            r = run_case(case, size, suite=suite, repeats=repeats, warmup=warmup, clock=clock)
            results.append(r)
            if on_result is not None:
                on_result(r)
    return results
