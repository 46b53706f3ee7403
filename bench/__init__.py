"""rocmath.bench: the benchmark harness behind ``rocmath-bench``.

Libraries register :class:`BenchCase` s (with :func:`register` or the
:func:`bench_case` decorator) in a ``bench_cases`` submodule of their package;
:func:`discover` imports them.  :func:`run_case` times a case cold (first call,
with numba compilation) and warm (median of repeats interleaved with the
NumPy/SciPy reference), and checks the result against the reference.
:mod:`rocmath.bench.timing` holds the reusable timing helpers.

Example, in ``blas/bench_cases.py`` (``my_gemm`` stands for the library's call)::

    import numpy as np
    import rocmath as rm
    from rocmath.bench import Problem, bench_case

    @bench_case("blas.dgemm", sizes={"quick": [128], "full": [128, 1024]})
    def dgemm(n):
        "C = A B (double, beta 0) vs NumPy matmul"
        rng = np.random.default_rng(0)
        a, b = rng.standard_normal((n, n)), rng.standard_normal((n, n))
        s = rm.Stream()
        da, db, dc = rm.to_device(a, s), rm.to_device(b, s), rm.empty((n, n))

        def run():
            my_gemm(da, db, dc, stream=s)   # enqueues the kernel on s
            return dc                       # the runner fetches it with .get()

        return Problem(run=run, reference=lambda: a @ b, flops=2 * n**3, bytes=8 * 3 * n * n,
                       stream=s, tol=1e-13 * n)
"""

from __future__ import annotations

from . import timing
from .case import BenchCase, Problem, default_tol, max_rel_error, to_host
from .registry import LIBRARY_PACKAGES, Registry, bench_case, default_registry, discover, register
from .runner import CaseResult, run_case, run_cases

__all__ = [
    "LIBRARY_PACKAGES", "BenchCase", "CaseResult", "Problem", "Registry", "bench_case", "default_registry",
    "default_tol", "discover", "max_rel_error", "register", "run_case", "run_cases", "timing", "to_host",
]
