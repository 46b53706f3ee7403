"""``rocmath-bench fft``: rocfft-bench's command line, run on rocmath.fft.

``rocmath-bench fft --length 1024 -b 4096 -t 0 --precision single -o -N 10`` takes rocfft-bench's
flags (same names, short forms and defaults: in place unless ``-o``, single precision, batch 1,
one trial; lengths, strides and offsets slowest dimension first, as rocfft-bench takes them),
creates the plan through rocmath.fft's rocFFT API, runs one warm-up execution, then ``ntrial``
timed executions (each on fresh input, as rocfft-bench regenerates it) and prints
rocfft-bench's report: the parameters it echoes, ``Execution gpu time: t1 t2 ... ms`` and
``Execution gflops: ...`` (rocFFT's ``5 N log2 N`` per transform, half for real ones).  Two
lines are rocmath's own and come last: ``Reference scipy.fft time`` (the same transform by
scipy.fft with ``workers=2`` on the same logical data, timed the same way, interleaved with
the executions in the same process) and ``ratio`` (reference median / rocmath median: > 1
when rocmath is faster).  ``--itype``/``--otype`` also accept rocfft-rider's older names
``--inArrType``/``--outArrType``.

The ``ROCFFT_LAYER=2`` bench log of :mod:`rocmath.fft` writes these commands (with
``rocmath-bench fft`` in place of ``rocfft-bench``): each replays to the same plan.

Exit status: 0 on success, 1 when the run fails, 2 for a usage error (unknown flag, bad
value, parameters rocFFT rejects: an ``Invalid parameters`` error as rocfft-bench's).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import numpy as np

from .rocblas_cli import UsageError, _g, _Parser

__all__ = ["Setup", "UsageError", "main", "parse_args", "plan_spec", "run"]

SEED = 20240605  # fixed, so runs are reproducible
WORKERS = 2  # scipy.fft's workers for the reference (the machine's cores)


# --- the command line ------------------------------------------------------------------------


def _precision(text: str) -> str:
    if text not in ("single", "double", "half"):
        raise argparse.ArgumentTypeError(f"expected single, double or half, got {text!r}")
    return text


def _parser() -> _Parser:
    p = _Parser(prog="rocmath-bench fft", add_help=False, allow_abbrev=False,
                description="rocfft-bench's command line on rocmath.fft: time one rocFFT plan on the simulated "
                            "device and print rocfft-bench's report, plus the scipy.fft reference timed the same "
                            "way in the same process and ratio = reference / rocmath (>1: rocmath is faster).",
                epilog="Examples: rocmath-bench fft --length 1024 -b 4096 -o -N 10;  rocmath-bench fft --length "
                       "1024 1024 -t 2 --precision double -o -N 5.  Lengths, strides and offsets are given "
                       "slowest dimension first.")
    a = p.add_argument
    a("--version", action="store_true", help="print the rocFFT version and exit")
    a("--double", action="store_true", help="double precision (deprecated: use --precision double)")
    a("-t", "--transformType", dest="transform_type", type=int, default=0,
      help="0) complex forward, 1) complex inverse, 2) real forward, 3) real inverse (default 0)")
    a("--precision", type=_precision, default=None, help="single (default), double, half")
    a("-o", "--notInPlace", dest="not_in_place", action="store_true", help="not in place (default: in place)")
    a("--itype", "--inArrType", dest="itype", type=int, default=5,
      help="input array type: 0) interleaved, 1) planar, 2) real, 3) hermitian interleaved, 4) hermitian "
           "planar, 5) unset: the transform's default (default 5)")
    a("--otype", "--outArrType", dest="otype", type=int, default=5, help="output array type (as --itype)")
    a("--length", type=int, nargs="+", required=True, help="1 to 3 lengths, slowest first")
    a("-b", "--batchSize", dest="batch", type=int, default=1, help="number of transforms (default 1)")
    a("--istride", type=int, nargs="+", default=None, help="input strides, slowest first")
    a("--ostride", type=int, nargs="+", default=None, help="output strides, slowest first")
    a("--idist", type=int, default=0, help="elements between input batch entries (default 0: contiguous)")
    a("--odist", type=int, default=0, help="elements between output batch entries (default 0: contiguous)")
    a("--ioffset", type=int, nargs="+", default=None, help="input offsets (two for planar data)")
    a("--ooffset", type=int, nargs="+", default=None, help="output offsets (two for planar data)")
    a("--ignore_runtime_failures", dest="ignore_runtime_failures", action="store_true", default=True,
      help="ignore HIP runtime failures (default)")
    a("--no-ignore_runtime_failures", dest="ignore_runtime_failures", action="store_false",
      help="fail on HIP runtime failures")
    a("--device", type=int, default=0, help="device id (default 0)")
    a("--verbose", type=int, default=0, help="1: print the plan's decomposition (default 0)")
    a("-N", "--ntrial", type=int, default=1, help="timed executions (default 1)")
    a("-g", "--inputGen", dest="input_gen", type=int, default=1,
      help="input: 0/1) pseudo-random (device/host), 2/3) linearly spaced (device/host) (default 1)")
    a("--isize", type=int, nargs="+", default=None, help="logical input buffer size (elements)")
    a("--osize", type=int, nargs="+", default=None, help="logical output buffer size (elements)")
    a("--scalefactor", type=float, default=1.0, help="scale factor applied to the output (default 1)")
    a("-h", "--help", action="store_true", help="print this help and exit")
    return p


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """Parse rocfft-bench's flags.

    Raises
    ------
    UsageError
        For an unknown flag, a bad value, or ``--double`` with ``--precision``.
    """
    args = _parser().parse_args(list(argv))
    if args.double and args.precision is not None:
        raise UsageError("--double excludes --precision")
    args.precision = "double" if args.double else (args.precision or "single")
    if not 1 <= len(args.length) <= 3:
        raise UsageError(f"--length: 1 to 3 values expected, got {len(args.length)}")
    if args.ntrial < 0:
        raise UsageError(f"Invalid value for -N {args.ntrial}")
    if args.input_gen not in (0, 1, 2, 3):
        raise UsageError(f"Invalid value for -g {args.input_gen}")
    return args


def plan_spec(args: argparse.Namespace) -> Any:
    """The canonical rocFFT plan parameters (:class:`rocmath.fft._plan.PlanSpec`) of the flags.

    Raises
    ------
    UsageError
        When rocFFT rejects the parameters (``Invalid parameters``, with rocFFT's reason).
    """
    import rocmath.fft as F
    from rocmath.fft._api import make_spec

    desc = F.plan_description_create()
    rank = len(args.length)
    try:
        F.plan_description_set_data_layout(
            desc, args.itype, args.otype, args.ioffset, args.ooffset,
            rank, None if args.istride is None else args.istride[::-1], args.idist,
            rank, None if args.ostride is None else args.ostride[::-1], args.odist)
        F.plan_description_set_scale_factor(desc, args.scalefactor)
        placement = F.ResultPlacement.notinplace if args.not_in_place else F.ResultPlacement.inplace
        return make_spec(placement, args.transform_type, F.Precision[args.precision], rank, args.length[::-1],
                         args.batch, desc)
    except F.RocfftError as e:
        raise UsageError(f"Invalid parameters: {e} ({e.status.to_string()})") from None


# --- data --------------------------------------------------------------------------------------


def _element_index(lengths: tuple[int, ...], strides: tuple[int, ...], dist: int, batch: int) -> np.ndarray:
    """Element offset of every logical element, in host order (batch, slowest, ..., fastest)."""
    idx = np.arange(batch, dtype=np.int64).reshape((batch,) + (1,) * len(lengths)) * dist
    for d, (n, s) in enumerate(zip(lengths, strides, strict=True)):
        shape = [1] * (len(lengths) + 1)
        shape[len(lengths) - d] = n
        idx = idx + (np.arange(n, dtype=np.int64) * s).reshape(shape)
    return idx


class Setup:
    """The plan, its device buffers and the host data of one rocfft-bench problem.

    The input is generated once (pseudo-random uniform in [-0.5, 0.5), or linearly spaced,
    Hermitian-symmetric for real inverse transforms) and copied to the device before every
    execution; ``logical`` is the same input as a contiguous host array for the reference.
    """

    def __init__(self, spec: Any, input_gen: int = 1):
        import rocmath as rm
        import rocmath.fft as F
        from rocmath.fft._api import _STORAGE

        self.spec = spec
        self.stream = rm.Stream()
        self.plan = F.Plan(F.get_plan_cache().get(spec))
        self.info = F.execution_info_create()
        F.execution_info_set_stream(self.info, self.stream)
        ep = self.plan.exec_plan
        assert ep is not None
        store = _STORAGE[spec.precision]
        self.store = store
        tt = spec.transform_type
        shape = (spec.batch, *spec.lengths[::-1])
        axes = tuple(range(1, len(spec.lengths) + 1))
        self.axes = axes
        self.compute = np.float32 if store != np.float64 else np.float64
        ctype = np.complex64 if self.compute == np.float32 else np.complex128
        rng = np.random.default_rng(SEED)

        def values(n_shape: tuple[int, ...]) -> np.ndarray:
            if input_gen in (2, 3):
                return (np.arange(math.prod(n_shape), dtype=np.float64).reshape(n_shape) / max(math.prod(n_shape), 1))
            return rng.uniform(-0.5, 0.5, n_shape)

        if tt == F.TransformType.real_forward:
            logical: np.ndarray = values(shape)
        elif tt == F.TransformType.real_inverse:
            logical = np.fft.rfftn(values(shape), axes=axes)  # Hermitian-symmetric input
        else:
            logical = values(shape) + 1j * values(shape)
        self.logical = logical.astype(ctype if np.iscomplexobj(logical) else self.compute)
        # The input buffers: the logical elements at their layout's places (padding left zero).
        inp = spec.inp
        idx = _element_index(spec.in_lengths, inp.strides, inp.distance, spec.batch)
        stored = self.logical.astype(np.complex128 if np.iscomplexobj(self.logical) else np.float64)
        self.host: list[np.ndarray] = []
        for j in range(inp.buffers):
            flat = np.zeros(inp.offsets[j] * inp.cs + ep.in_extent[j], dtype=store)
            base = inp.offsets[j] * inp.cs
            if not inp.complex:
                flat[base + idx] = stored.real
            elif inp.planar:
                flat[base + idx] = stored.real if j == 0 else stored.imag
            else:
                flat[base + 2 * idx] = stored.real
                flat[base + 2 * idx + 1] = stored.imag
            self.host.append(flat)
        self.dev_in = [rm.to_device(h, self.stream) for h in self.host]
        out = spec.out
        inplace = spec.placement == F.ResultPlacement.inplace
        self.dev_out = self.dev_in if inplace else [
            rm.zeros(out.offsets[j] * out.cs + ep.out_extent[j], store) for j in range(out.buffers)]
        self.work = None
        if ep.work_bytes:  # a work buffer allocated once, as rocfft-bench's plan keeps one
            self.work = rm.empty(ep.work_bytes, np.uint8)
            F.execution_info_set_work_buffer(self.info, self.work, ep.work_bytes)
        self.stream.synchronize()

    def reset(self) -> None:
        """Fresh input on the device (in place and real inverse transforms overwrite it)."""
        for d, h in zip(self.dev_in, self.host, strict=True):
            d.set(h, self.stream)
        self.stream.synchronize()

    def execute(self) -> None:
        import rocmath.fft as F

        F.execute(self.plan, self.dev_in, self.dev_out, self.info)
        self.stream.synchronize()

    def reference(self) -> Callable[[], Any]:
        """The same transform by scipy.fft (``workers=2``) on the logical input."""
        import scipy.fft

        import rocmath.fft as F

        x, axes, spec = self.logical, self.axes, self.spec
        n = math.prod(spec.lengths)
        tt = spec.transform_type
        if tt == F.TransformType.complex_forward:
            return lambda: scipy.fft.fftn(x, axes=axes, workers=WORKERS)
        if tt == F.TransformType.complex_inverse:
            return lambda: scipy.fft.ifftn(x, axes=axes, norm="forward", workers=WORKERS)
        if tt == F.TransformType.real_forward:
            return lambda: scipy.fft.rfftn(x, axes=axes, workers=WORKERS)
        s = tuple(spec.lengths[::-1])
        return lambda: scipy.fft.irfftn(x, s=s, axes=axes, norm="forward", workers=WORKERS) if n else None

    def close(self) -> None:
        self.stream.synchronize()
        self.stream.destroy()


# --- running ------------------------------------------------------------------------------------


def _echo(args: argparse.Namespace, argv: Sequence[str], out: TextIO) -> None:
    """What rocfft-bench prints about its parameters before running."""
    given = set(argv)
    if given & {"-N", "--ntrial"}:
        out.write(f"Running profile with {args.ntrial} samples\n")
    if "--idist" in given:
        out.write(f"idist: {args.idist}\n")
    if "--odist" in given:
        out.write(f"odist: {args.odist}\n")
    out.write("out-of-place\n" if args.not_in_place else "in-place\n")
    out.write("length:" + "".join(f" {v}" for v in args.length) + "\n")
    for name in ("istride", "ostride", "ioffset", "ooffset"):
        values = getattr(args, name)
        if values is not None:
            out.write(f"{name}:" + "".join(f" {v}" for v in values) + "\n")


def run(args: argparse.Namespace, out: TextIO, argv: Sequence[str] = ()) -> int:
    """Time one plan (and its scipy.fft reference) and print rocfft-bench's report.

    Parameters
    ----------
    args
        From :func:`parse_args`.
    out
        Where the report goes.
    argv
        The command line, to echo the flags given as rocfft-bench does.

    Returns
    -------
    int
        0 (failures raise).
    """
    import rocmath as rm

    spec = plan_spec(args)
    _echo(args, argv, out)
    props = rm.get_device_properties()
    out.write(f"Device ID {rm.get_device()} : {props.name} {props.gcnArchName} (simulated on this host)\n")
    s = Setup(spec, args.input_gen)
    try:
        if args.verbose:
            out.write(s.plan.exec_plan.describe() + "\n")  # type: ignore[union-attr]
        reference = s.reference()
        s.reset()
        s.execute()  # warm-up, as rocfft-bench's
        reference()
        times: list[float] = []
        ref_times: list[float] = []
        for _ in range(args.ntrial):  # interleaved: both see the same machine load
            s.reset()
            t0 = time.perf_counter_ns()
            s.execute()
            times.append((time.perf_counter_ns() - t0) / 1e6)
            t0 = time.perf_counter_ns()
            reference()
            ref_times.append((time.perf_counter_ns() - t0) / 1e6)
    finally:
        s.close()
    n = math.prod(spec.lengths)
    k = 2.5 if spec.transform_type.is_real else 5.0
    ops = spec.batch * k * n * (math.log2(n) if n > 1 else 0.0)
    out.write("\nExecution gpu time:" + "".join(f" {_g(t)}" for t in times) + " ms\n")
    out.write("Execution gflops:  " + "".join(f" {_g(ops / (1e6 * t)) if t > 0 else 'inf'}" for t in times) + "\n")
    out.write(f"Reference scipy.fft time (workers={WORKERS}, same process):"
              + "".join(f" {_g(t)}" for t in ref_times) + " ms\n")
    if times:
        med, ref_med = statistics.median(times), statistics.median(ref_times)
        out.write(f"ratio (reference median / rocmath median): {_g(ref_med / med) if med > 0 else 'inf'}\n")
    return 0


def main(argv: Sequence[str], out: TextIO | None = None) -> int:
    """``rocmath-bench fft``: the exit status.

    Parameters
    ----------
    argv
        The arguments after ``fft``.
    out
        Where the report goes (stdout when None).
    """
    from rocmath.errors import RocmathError

    out = out or sys.stdout
    try:
        if not argv or "-h" in argv or "--help" in argv:
            out.write(_parser().format_help())
            return 0
        if "--version" in argv:
            import rocmath.fft as F

            out.write(f"version {F.get_version_string()}\n")
            return 0
        args = parse_args(argv)
        import rocmath as rm

        if not 0 <= args.device < rm.get_device_count():
            raise UsageError(f"Invalid value for --device {args.device}")
        rm.set_device(args.device)
        plan_spec(args)  # parameters rocFFT rejects are a usage error, before any output
    except UsageError as e:
        sys.stderr.write(f"rocmath-bench fft: {e}\n")
        return 2
    try:
        return run(args, out, argv)
    except RocmathError as e:
        sys.stderr.write(f"rocmath-bench fft: failed: {e}\n")
        return 1
