"""``rocmath-bench``: time rocmath against NumPy/SciPy on this machine.

``rocmath-bench blas ...`` is rocblas-bench's command line instead (see
:mod:`rocmath.bench.rocblas_cli`; ``solver``, ``fft`` and ``sparse`` likewise for rocsolver-bench,
rocfft-bench and rocsparse-bench); ``rocmath-bench compare A B`` (or ``--compare A B``) times two
revisions or configurations against each other (:mod:`rocmath.bench.compare`); ``rocmath-bench check
BASELINE.json [CURRENT.json]`` flags regressions against saved results, recording the baseline of
this machine when it is missing (:mod:`rocmath.bench.check`);
``rocmath-bench profile`` samples cases with Linux perf and shows where their time goes, kernel by
kernel and instruction by instruction (:mod:`rocmath.bench.profile`);
``rocmath-bench plot`` draws saved results (:mod:`rocmath.bench.plot`); ``rocmath-bench --yaml
FILE`` runs a list of problems in one process (:mod:`rocmath.bench.problems`).

Exit status: 0 when every case ran and passed its correctness check, 1 when one
failed or a bench module failed to import, 2 for a usage error (e.g. no case
matches the suite and filter).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

from .registry import Registry, default_registry, discover
from .report import Progress, Table, format_time, machine_info, to_json, write_json
from .runner import DEFAULT_REPEATS, DEFAULT_WARMUP, CaseResult, run_cases
from .timing import WARM_BUDGET_NS, WARM_CALLS

__all__ = ["main", "run_suite"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="rocmath-bench",
        description="Time rocmath (cold, then warm interleaved with its NumPy/SciPy reference) and check "
                    "its results.  ratio = reference median / rocmath median (>1: rocmath is faster).",
        epilog="other commands (each with its own --help): blas | solver | fft | sparse ARGS (rocblas-bench, "
               "rocsolver-bench, rocfft-bench and rocsparse-bench command lines); compare (or --compare) A B "
               "(two git revisions or env:NAME=VALUE configurations, interleaved); check BASELINE.json "
               "[CURRENT.json] (regressions against saved results); profile (perf samples of cases, kernel by "
               "kernel and instruction by instruction); plot RESULTS.json...; --yaml FILE... "
               "(a list of problems in one process)")
    p.add_argument("--suite", default=None, help="suite to run: quick (default), full, ...")
    p.add_argument("--filter", default=None, metavar="SUBSTRING", help="only cases whose name contains SUBSTRING")
    p.add_argument("--repeats", type=_positive, default=DEFAULT_REPEATS, metavar="N",
                   help=f"timed rocmath/reference pairs per case (default {DEFAULT_REPEATS})")
    p.add_argument("--warmup", type=_non_negative, default=DEFAULT_WARMUP, metavar="N",
                   help=f"untimed pairs after the cold call, at least (default {DEFAULT_WARMUP}; quick calls get "
                        f"up to {WARM_CALLS} within {WARM_BUDGET_NS // 1_000_000} ms)")
    p.add_argument("--json", default=None, metavar="PATH", help="also write every result, with machine info, to PATH")
    p.add_argument("--list", action="store_true", help="list the cases (of --suite, if given) and exit")
    p.add_argument("--no-prime", action="store_true",
                   help="time kernels compiled in this process (by default a first process compiles them into "
                        "the numba cache and the timed one loads them: code compiled in the timing process has "
                        "run up to 2x slower than the same code loaded from the cache)")
    p.add_argument("--module", action="append", default=[], metavar="MODULE",
                   help="also import MODULE, which registers more cases (repeatable)")
    return p


def _prime(cases: Sequence[Any], suite: str) -> bool:
    """Compile the kernels of ``cases`` into the numba cache in a separate process (a
    :mod:`~rocmath.bench.worker` that sets every case up once); True if it ran through."""
    import json
    import subprocess

    cmds = [json.dumps({"op": "setup", "case": c.name, "size": json.loads(json.dumps(size))}) + "\n"
            + json.dumps({"op": "teardown"}) + "\n" for c in cases for size in c.sizes.get(suite, ())]
    sys.stderr.write(f"rocmath-bench: compiling the kernels of {len(cmds)} problems into the numba cache...\n")
    try:
        done = subprocess.run([sys.executable, "-m", "rocmath.bench.worker"], input="".join(cmds) + '{"op": "quit"}\n',
                              capture_output=True, text=True, timeout=3600)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def _restart_with_brief_blas_spin() -> None:
    """Run the command again with OpenBLAS's idle threads spinning as briefly as rocmath's.

    The same holds for OpenBLAS as for OpenMP (rocmath.kernel): its idle threads spin for about
    2^28 cycles (0.1 s) after each call, taking a core from the rocmath kernel timed next (and the
    references from each other: numpy and scipy each bring an OpenBLAS).  OpenBLAS reads
    ``OPENBLAS_THREAD_TIMEOUT`` when it is loaded, which numpy did before this code ran: the
    console command starts itself again once, with the variable set, unless the user set it.

    The value gives both thread pools the same idle spin: 2^17 cycles of the time-stamp counter,
    about 50 us, as rocmath's OpenMP threads spin (GOMP_SPINCOUNT=3000).  Measured on a 2-vCPU VM:
    both stay awake through idle gaps of 40 us and sleep by 80 us, and a call that finds its pool
    asleep pays a ~25 us wake-up on either side.  Sleeping at once (4, OpenBLAS's smallest) made
    the reference pay that wake-up on every call, rocmath not: np.dot of 65,536 doubles took 30 us
    instead of 7, and rocmath's small Level-1 cases read 1.5x where they are 0.4x.
    """
    if "OPENBLAS_THREAD_TIMEOUT" in os.environ:
        return
    env = dict(os.environ, OPENBLAS_THREAD_TIMEOUT="17")
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, "-m", "rocmath.bench.cli", *sys.argv[1:]], env)


def _positive(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {n}")
    return n


def _non_negative(text: str) -> int:
    n = int(text)
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, got {n}")
    return n


def _list(registry: Registry, suite: str | None, substring: str | None, out: TextIO) -> int:
    cases = registry.select(suite, substring)
    if not cases:
        out.write("no bench cases match\n")
        return 2
    width = max(len(c.name) for c in cases)
    for c in cases:
        sizes = "; ".join(f"{s}: {', '.join(map(str, v))}" for s, v in c.sizes.items())
        out.write(f"{c.name:<{width}}  [{sizes}]  {c.description}\n")
    return 0


def main(argv: Sequence[str] | None = None, *, registry: Registry | None = None, out: TextIO | None = None) -> int:
    """Entry point of ``rocmath-bench``; returns the exit status.

    Parameters
    ----------
    argv
        The arguments (``sys.argv[1:]`` when None).
    registry
        The cases to choose from.  When None, the default registry after
        :func:`~rocmath.bench.discover` (the runtime's and the libraries' cases).
    out
        Where the report goes (stdout when None).
    """
    # (Idle OpenMP teams sleep, as everywhere rocmath runs: rocmath.kernel sets the policy.)
    console = argv is None
    if console:
        _restart_with_brief_blas_spin()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["blas"]:  # rocblas-bench's command line
        from .rocblas_cli import main as blas_main

        return blas_main(argv[1:], out=out)
    if argv[:1] == ["fft"]:  # rocfft-bench's command line
        from .rocfft_cli import main as fft_main

        return fft_main(argv[1:], out=out)
    if argv[:1] in (["compare"], ["--compare"]):  # two revisions or configurations, call by call
        from .compare import main as compare_main

        return compare_main(argv[1:], out=out)
    if argv[:1] == ["profile"]:  # where a case's time goes, instruction by instruction (Linux perf)
        from .profile import main as profile_main

        return profile_main(argv[1:], out=out)
    if argv[:1] == ["--yaml"] or argv[:1] == ["yaml"]:  # a list of problems, one process
        from .problems import run_files

        return run_files(argv[1:], main, out=out)
    if argv[:1] == ["solver"]:  # rocsolver-bench's command line
        from .rocsolver_cli import main as solver_main

        return solver_main(argv[1:], out=out)
    if argv[:1] == ["sparse"]:  # rocsparse-bench's command line
        from .rocsparse_cli import main as sparse_main

        return sparse_main(argv[1:], out=out)
    if argv[:1] == ["plot"]:  # pictures of saved results
        from .plot import main as plot_main

        return plot_main(argv[1:], out=out)
    if argv[:1] == ["check"]:  # saved results against a new run or another file: regressions
        from .check import main as check_main

        return check_main(argv[1:], out=out, registry=registry, console=console)
    return run_suite(argv, registry=registry, out=out, console=console)


def run_suite(argv: Sequence[str], *, registry: Registry | None = None, out: TextIO | None = None,
              console: bool = False) -> int:
    """Run the cases the suite options of ``argv`` select and report them; the exit status.

    Parameters
    ----------
    argv
        ``rocmath-bench``'s suite options (``--suite``, ``--filter``, ``--repeats``, ``--json``...).
    registry, out
        As for :func:`main`.
    console
        Run as the console command: compile the kernels in a first process (unless
        ``--no-prime``) so that the timed one loads them from the numba cache.
    """
    argv = list(argv)
    args = _parser().parse_args(argv)
    out = out or sys.stdout
    status = 0
    if registry is None:
        registry = default_registry
        for module, state in discover(extra=args.module).items():
            if state != "ok":
                sys.stderr.write(f"rocmath-bench: cannot import {module}: {state}\n")
                status = 1
    else:
        for module, state in discover(packages=(), extra=args.module, builtin=False).items():
            if state != "ok":
                sys.stderr.write(f"rocmath-bench: cannot import {module}: {state}\n")
                status = 1
    if args.list:
        return max(status, _list(registry, args.suite, args.filter, out))

    suite = args.suite or "quick"
    cases = registry.select(suite, args.filter)
    if not cases:
        sys.stderr.write(f"rocmath-bench: no case in suite {suite!r} matches filter {args.filter!r} "
                         f"(suites: {', '.join(registry.suites()) or 'none'})\n")
        return 2

    primed = False
    if console and not args.no_prime:
        primed = _prime(cases, suite)

    import rocmath

    props = rocmath.get_device_properties()
    out.write(f"rocmath {rocmath.__version__} bench, suite {suite}: {props.name} ({props.gcnArchName}) "
              f"simulated on this host; {args.repeats} timed pairs after {args.warmup} warm-up "
              f"(quick calls: up to {WARM_CALLS} within {WARM_BUDGET_NS // 1_000_000} ms)\n")
    cold = ("cold = first call in this process (kernels from the numba cache, compiled by a first process); "
            if primed else "cold = first call in this process (incl. compilation); ")
    out.write(cold + "warm = median, +-CI95 its bootstrap interval;\nkernel = kernel-only median (launch records); "
              "ratio = reference / rocmath (>1: rocmath faster)\n\n")
    table = Table(out, name_width=max(len(c.name) for c in cases))
    table.header()
    t0 = time.perf_counter_ns()
    progress = Progress(sum(len(c.sizes.get(suite, ())) for c in cases), t0)

    def on_result(r: CaseResult) -> None:
        progress.clear()
        table.row(r)
        progress.step(r.case)

    results: list[CaseResult] = run_cases(cases, suite, repeats=args.repeats, warmup=args.warmup,
                                          on_result=on_result)
    progress.clear()
    wall = time.perf_counter_ns() - t0

    failed = [r for r in results if not r.ok]
    copies = [r.copy_gbs for r in results if r.copy_gbs is not None]
    if copies:
        span = f"{min(copies):.1f}" if max(copies) - min(copies) < 0.05 else f"{min(copies):.1f}-{max(copies):.1f}"
        out.write(f"\nmachine copy bandwidth {span} GB/s (read + write, best multi-threaded copy of 128 MiB, just "
                  "before and after each memory-bound case's timed calls): the % after its rate\n")
    info = machine_info()
    out.write(f"\n{len(results) - len(failed)}/{len(results)} passed in {format_time(wall)}; numba threading "
              f"layer {info['numba_threading_layer']}, {info['numba_num_threads']} threads, "
              f"{info['cpu_count']} CPUs\n")
    if failed:
        out.write("failed: " + ", ".join(f"{r.case} [{r.label}]" for r in failed) + "\n")
        status = 1
    if args.json:
        config = {"suite": suite, "filter": args.filter, "repeats": args.repeats, "warmup": args.warmup,
                  "modules": list(args.module), "argv": argv}
        write_json(args.json, to_json(results, config, {"wall_ns": wall}))
        out.write(f"results written to {args.json}\n")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
