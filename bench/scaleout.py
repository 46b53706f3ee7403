"""Strong scaling from 1 to 2 processes, with the communication it costs.

``python -m rocmath.bench.scaleout [--quick] [--engine dask|mpi|all]`` times fixed problems
on 1 and 2 processes of each existing engine rocmath runs on, every process with one
simulated device and one compute thread, so the process count is the only knob:

- Dask ``distributed.LocalCluster`` with 1 or 2 worker processes: a batched dgemm of a
  stack chunked along the batch (no communication between workers: embarrassingly
  parallel) and a blocked 2-D dgemm (blocks travel between workers);
- MPI (``mpiexec -n P python -m rocmath.mpi``): SUMMA dgemm on a block-cyclic layout.

For each it prints the best time of a few runs, the speedup over 1 process, the parallel
efficiency, and the bytes that moved between processes: measured (Dask's worker transfer
counters; the counted MPI broadcasts) and, for SUMMA, the model
``8 k (m (pc - 1) + n (pr - 1))``, so the design can be judged at scales this 2-core
machine cannot run.  Inputs are made on the workers (``dask.array.random``), so shipping
them from the client is not counted as the algorithm's communication.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any

# One compute thread per process: the processes are what scales.
_SINGLE = {"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
           "ROCMATH_DEVICE_COUNT": "1"}


@dataclass
class Row:
    """One measurement: an engine's case on ``procs`` processes."""

    engine: str
    case: str
    procs: int
    seconds: float
    bytes_moved: int
    model_bytes: int | None = None


def _dask_case(case: str, procs: int, quick: bool, repeats: int) -> Row:
    import dask.array as da
    import distributed

    import rocmath.dask as rd

    if case == "batched dgemm":
        batch, n = (2048, 24) if quick else (8192, 32)
        chunks = batch // 8

        def build() -> Any:
            rng = da.random.default_rng(0)
            a = rng.standard_normal((batch, n, n), chunks=(chunks, n, n))
            b = rng.standard_normal((batch, n, n), chunks=(chunks, n, n))
            return rd.matmul(a, b).sum()
    else:
        n, nb = (768, 192) if quick else (1536, 256)

        def build() -> Any:
            rng = da.random.default_rng(1)
            a = rng.standard_normal((n, n), chunks=nb)
            b = rng.standard_normal((n, n), chunks=nb)
            return rd.matmul(a, b).sum()

    with distributed.LocalCluster(n_workers=procs, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster, distributed.Client(cluster) as client:
        build().compute()  # warm: workers import rocmath and load the compiled kernels

        def moved() -> int:
            return int(sum(client.run(lambda dask_worker: dask_worker.transfer_outgoing_bytes_total).values()))

        best, traffic = float("inf"), 0
        for _ in range(repeats):
            before = moved()
            t0 = time.perf_counter()
            build().compute()
            best = min(best, time.perf_counter() - t0)
            traffic = moved() - before
    return Row("dask", case, procs, best, traffic)


def _mpi_case(procs: int, quick: bool, repeats: int) -> Row | None:
    exe = shutil.which("mpiexec")
    if exe is None:
        return None
    m, n, k, nb = (768, 768, 768, 64) if quick else (1536, 1536, 1536, 128)
    cmd = [exe, "-n", str(procs), sys.executable, "-m", "rocmath.mpi", str(m), str(n), str(k), str(nb), str(repeats)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=dict(os.environ, **_SINGLE))
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stdout}{proc.stderr}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    if out["rel_error"] > 1e-12:
        raise RuntimeError(f"SUMMA on {procs} ranks is wrong: relative error {out['rel_error']}")
    return Row("mpi", f"SUMMA dgemm {m}x{k}x{n} nb={nb} grid {out['grid'][0]}x{out['grid'][1]}", procs,
               out["seconds"], out["bytes"], out["model_bytes"])


def _print(rows: list[Row]) -> None:
    base: dict[tuple[str, str], float] = {}
    print(f"{'engine':6} {'case':44} {'procs':>5} {'seconds':>9} {'speedup':>8} {'effic.':>7} "
          f"{'bytes moved':>12} {'model bytes':>12}")
    for r in rows:
        key = (r.engine, r.case.split(" grid")[0])
        if r.procs == 1:
            base[key] = r.seconds
        speed = base.get(key, r.seconds) / r.seconds
        model = "" if r.model_bytes is None else str(r.model_bytes)
        print(f"{r.engine:6} {r.case:44} {r.procs:5d} {r.seconds:9.4f} {speed:8.2f} {speed / r.procs:7.2f} "
              f"{r.bytes_moved:12d} {model:>12}")


def main(argv: list[str] | None = None) -> int:
    """Run the measurement; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m rocmath.bench.scaleout", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller problems (seconds, for a smoke run)")
    parser.add_argument("--engine", choices=("dask", "mpi", "all"), default="all")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    os.environ.update(_SINGLE)  # inherited by the worker processes and ranks
    print(f"strong scaling on {os.cpu_count()} cores; one thread and one simulated device per process")
    rows: list[Row] = []
    if args.engine in ("dask", "all"):
        try:
            import distributed  # noqa: F401
        except ImportError:
            print("dask/distributed not installed: pip install 'rocmath[dask]'")
        else:
            for case in ("batched dgemm", "blocked dgemm"):
                for procs in (1, 2):
                    rows.append(_dask_case(case, procs, args.quick, args.repeats))
    if args.engine in ("mpi", "all"):
        try:
            import mpi4py  # noqa: F401
        except ImportError:
            print("mpi4py not installed: pip install mpi4py mpich")
        else:
            for procs in (1, 2):
                row = _mpi_case(procs, args.quick, args.repeats)
                if row is None:
                    print("no mpiexec on PATH")
                    break
                rows.append(row)
    _print(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
