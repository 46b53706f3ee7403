"""Strong scaling from 1 to 2 processes, with the communication it costs.

``python -m rocmath.bench.scaleout [--quick] [--engine dask|mpi|all]`` times fixed problems
on 1 and 2 processes of each existing engine rocmath runs on, every process with one
simulated device and one compute thread, so the process count is the only knob:

- Dask ``distributed.LocalCluster`` with 1 or 2 worker processes: a batched dgemm of a
  stack chunked along the batch (no communication between workers: embarrassingly
  parallel) and a blocked 2-D dgemm (blocks travel between workers);
- MPI (``mpiexec -n P``): SUMMA dgemm on a block-cyclic layout (``python -m rocmath.mpi``),
  the blocked LU with partial pivoting (``python -m rocmath.mpi_lu``) without and with
  look-ahead (depth 0 and 1: the same pivots, bits and bytes, only the schedule differs),
  and a double complex 3-D rocFFT field plan over ``plan_description_set_comm`` (this
  module's ``--fft-worker`` mode: input bricks in slabs of the outermost dimension, output
  bricks in slabs of the innermost one, one of each per rank; on one rank the plan gathers,
  on two it runs slabs with one all-to-all transpose).

For each it prints the best time of a few runs, the speedup over 1 process, the parallel
efficiency, and the bytes that moved between processes: measured (Dask's worker transfer
counters; the counted MPI messages; the bytes the FFT's ``Alltoallv`` delivered) and the
model (SUMMA's ``8 k (m (pc - 1) + n (pr - 1))``, :func:`rocmath.mpi_lu.getrf_volume`, the
FFT plan's ``comm_volume`` from its geometry), so the design can be judged at scales this
2-core machine cannot run.  Every MPI case checks its result (SUMMA and LU against numpy,
the FFT bitwise against the single-device plan) and fails rather than time a wrong answer.
Inputs are made on the workers (``dask.array.random``), so shipping them from the client
is not counted as the algorithm's communication.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any

from rocmath.mpi import find_mpiexec

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
    config: str = ""  # how the processes were arranged (the process grid, the FFT plan's strategy)


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
            # B from A's own chunks: two independently made stacks would put the two operands of
            # a chunk on different workers, and moving one is not the algorithm's communication
            return rd.matmul(a, a.transpose(0, 2, 1)).sum()
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


def _mpirun(procs: int, args: list[str]) -> dict[str, Any] | None:
    """Run ``mpiexec -n procs python args...`` and return the JSON line its rank 0 printed."""
    exe = find_mpiexec()
    if exe is None:
        return None
    cmd = [exe, "-n", str(procs), sys.executable, *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=dict(os.environ, **_SINGLE))
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stdout}{proc.stderr}")
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def _mpi_case(case: str, procs: int, quick: bool, repeats: int, depth: int = 1) -> Row | None:
    if case == "summa":
        m, n, k, nb = (768, 768, 768, 64) if quick else (1536, 1536, 1536, 128)
        out = _mpirun(procs, ["-m", "rocmath.mpi", str(m), str(n), str(k), str(nb), str(repeats)])
        if out is None:
            return None
        if out["rel_error"] > 1e-12:
            raise RuntimeError(f"SUMMA on {procs} ranks is wrong: relative error {out['rel_error']}")
        name = f"SUMMA dgemm {m}x{k}x{n} nb={nb}"
    elif case == "lu":
        n, nb = (768, 64) if quick else (2048, 128)
        out = _mpirun(procs, ["-m", "rocmath.mpi_lu", str(n), str(nb), str(repeats), str(depth)])
        if out is None:
            return None
        if out["info"] != 0 or out["residual_ratio"] > 30:
            raise RuntimeError(f"LU on {procs} ranks is wrong: info {out['info']}, residual ratio "
                               f"{out['residual_ratio']}")
        name = f"LU dgetrf {n}x{n} nb={nb} depth={depth}"
    else:
        lengths = (64, 64, 64) if quick else (128, 128, 128)
        out = _mpirun(procs, ["-m", "rocmath.bench.scaleout", "--fft-worker", *(str(v) for v in lengths),
                              str(repeats)])
        if out is None:
            return None
        if not out["bitwise"]:
            raise RuntimeError(f"the FFT field plan on {procs} ranks differs from the single-device plan")
        return Row("mpi", f"FFT z2z {'x'.join(str(v) for v in lengths)}", procs, out["seconds"], out["bytes"],
                   out["model_bytes"], out["strategy"])
    return Row("mpi", name, procs, out["seconds"], out["bytes"], out["model_bytes"],
               f"grid {out['grid'][0]}x{out['grid'][1]}")


def _fft_worker(argv: list[str]) -> None:  # pragma: no cover - run under mpiexec by _mpi_case
    """One rank of the FFT case: ``N0 N1 N2 REPEATS``; rank 0 prints one JSON line."""
    import numpy as np
    from mpi4py import MPI

    import rocmath as rm
    import rocmath.fft as F

    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    lengths = [int(v) for v in argv[:3]]
    repeats = int(argv[3])
    shape = lengths[::-1]
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)

    def slab(axis: int) -> tuple[list[int], list[int], list[int]]:
        """This rank's slab of ``axis`` (bounds with the batch index, packed strides)."""
        lo, up = [0, 0, 0, 0], [*lengths, 1]
        lo[axis], up[axis] = rank * lengths[axis] // size, (rank + 1) * lengths[axis] // size
        n = [b - a for a, b in zip(lo, up, strict=True)]
        return lo, up, [1, n[0], n[0] * n[1], n[0] * n[1] * n[2]]

    d = F.plan_description_create()
    F.plan_description_set_comm(d, F.CommType.mpi, comm)
    (ilo, iup, ist), (olo, oup, ost) = slab(2), slab(0)
    fin, fout = F.field_create(), F.field_create()
    F.field_add_brick(fin, F.brick_create(ilo, iup, ist, 4, 0))
    F.field_add_brick(fout, F.brick_create(olo, oup, ost, 4, 0))
    F.plan_description_add_infield(d, fin)
    F.plan_description_add_outfield(d, fout)
    kind = (F.ResultPlacement.notinplace, F.TransformType.complex_forward, F.Precision.double, 3, lengths, 1)
    plan = F.plan_create(*kind, d)
    din = rm.to_device(np.ascontiguousarray(x[ilo[2]:iup[2]]))
    dout = rm.zeros((oup[2] - olo[2], oup[1] - olo[1], oup[0] - olo[0]), np.complex128)
    F.execute(plan, [din], [dout])  # warm: kernels loaded, pools filled
    times = []
    for _ in range(repeats):
        comm.Barrier()
        t0 = MPI.Wtime()
        F.execute(plan, [din], [dout])
        comm.Barrier()
        times.append(MPI.Wtime() - t0)
    received = comm.allreduce(plan.last_comm_bytes)
    pieces = comm.gather(dout.get(), root=0)
    if rank == 0:
        assert pieces is not None
        ref = rm.zeros(shape, np.complex128)
        F.execute(F.plan_create(*kind, None), [rm.to_device(x)], [ref])
        same = np.concatenate(pieces, axis=2).tobytes() == ref.get().tobytes()
        print(json.dumps({"ranks": size, "strategy": plan.strategy, "seconds": min(times), "bytes": int(received),
                          "model_bytes": plan.comm_volume, "bitwise": same}))


def _print(rows: list[Row]) -> None:
    base: dict[tuple[str, str], float] = {}
    print(f"{'engine':6} {'case':44} {'procs':>5} {'seconds':>9} {'speedup':>8} {'effic.':>7} "
          f"{'bytes moved':>12} {'model bytes':>12}")
    for r in rows:
        key = (r.engine, r.case)
        if r.procs == 1:
            base[key] = r.seconds
        speed = base.get(key, r.seconds) / r.seconds
        model = "" if r.model_bytes is None else str(r.model_bytes)
        case = f"{r.case} {r.config}".strip()
        print(f"{r.engine:6} {case:44} {r.procs:5d} {r.seconds:9.4f} {speed:8.2f} {speed / r.procs:7.2f} "
              f"{r.bytes_moved:12d} {model:>12}")


def main(argv: list[str] | None = None) -> int:
    """Run the measurement; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m rocmath.bench.scaleout", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller problems (seconds, for a smoke run)")
    parser.add_argument("--engine", choices=("dask", "mpi", "all"), default="all")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--fft-worker", nargs=4, metavar=("N0", "N1", "N2", "REPEATS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.fft_worker:
        _fft_worker(args.fft_worker)
        return 0
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
            for case, depth in (("summa", 1), ("lu", 0), ("lu", 1), ("fft", 1)):
                for procs in (1, 2):
                    row = _mpi_case(case, procs, args.quick, args.repeats, depth)
                    if row is None:
                        print("no mpiexec on PATH")
                        break
                    rows.append(row)
    _print(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
