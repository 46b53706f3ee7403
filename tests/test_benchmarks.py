"""The bench suite under pytest-benchmark: ``pytest --benchmark-only -n 0`` times every case of the
quick suite (``ROCMATH_BENCH_SUITE=full`` for the full one), so that pytest-benchmark's
``--benchmark-autosave`` / ``--benchmark-compare`` track regressions run over run.

Each case is checked against its NumPy/SciPy reference first; the reference's own median time
goes to the saved JSON as ``extra_info`` (with the case's flops and bytes), so the ratio of the
rocmath bench can be computed from it too.  In ordinary test runs these are skipped (conftest),
as timing is not testing.
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

import pytest

import rocmath
from rocmath.bench import default_registry, default_tol, discover, to_host

discover()
SUITE = os.environ.get("ROCMATH_BENCH_SUITE", "quick")
CASES = [(case, size) for case in default_registry.select(SUITE, None) for size in case.sizes.get(SUITE, ())]


@pytest.mark.parametrize(("case", "size"), CASES, ids=[f"{c.name}-{s}" for c, s in CASES])
def test_bench_case(benchmark: Any, case: Any, size: Any) -> None:
    problem = case.setup(size)
    try:
        stream = problem.stream
        sync = stream.synchronize if stream is not None else rocmath.device_synchronize

        def run() -> Any:
            value = problem.run()
            sync()
            return value

        actual = (problem.result or to_host)(run())  # the cold call compiles; then check it
        expected = problem.reference()
        err = float(problem.check(actual, expected))
        tol = problem.tol if problem.tol is not None else default_tol(expected)
        assert err <= tol, f"{case.name} [{size}]: max rel err {err:.3g} > {tol:.3g}"
        ref = []
        for _ in range(5):
            t0 = time.perf_counter()
            problem.reference()
            ref.append(time.perf_counter() - t0)
        benchmark.extra_info.update(case=case.name, size=repr(size), label=problem.label or str(size),
                                    flops=problem.flops, bytes=problem.bytes,
                                    reference_median_s=statistics.median(ref))
        benchmark(run)
    finally:
        if problem.teardown is not None:
            problem.teardown()
