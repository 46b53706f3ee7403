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

``--token complex_forward_len_64_single_ip_batch_1_istride_1_CI_ostride_1_CI_idist_64_odist_64_ioffset_0_0_ooffset_0_0``
gives the whole problem as the token rocFFT's test suite names its cases by (:func:`parse_token`
reads ``fft_params::from_token``'s grammar), in place of the other problem flags; as rocfft-bench,
every run prints the token of its plan (``Token: ...``, :func:`token`).  ``--verify 1``
(rocmath's own flag: rocfft-bench's ``-v`` is ``--version``) first checks one execution against
scipy.fft in double precision on the same input: the relative L2 and L-infinity errors, as
rocFFT's accuracy tests measure them, within ``10 eps log2(N)``.

Exit status: 0 on success, 1 when the run fails or ``--verify 1`` finds an error above tolerance,
2 for a usage error (unknown flag, bad value, a token it cannot parse or run, parameters rocFFT
rejects: an ``Invalid parameters`` error as rocfft-bench's).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import numpy as np

from ._cli_common import (
    Parser,
    UsageError,
    device_line,
    fmt_g,
    print_help,
    ratio_interval,
    select_device,
    time_each,
    usage_failure,
)

__all__ = ["Setup", "UsageError", "main", "parse_args", "parse_token", "plan_spec", "run", "token"]

SEED = 20240605  # fixed, so runs are reproducible
WORKERS = 2  # scipy.fft's workers for the reference (the machine's cores)


# --- the command line ------------------------------------------------------------------------


def _precision(text: str) -> str:
    if text not in ("single", "double", "half"):
        raise argparse.ArgumentTypeError(f"expected single, double or half, got {text!r}")
    return text


def _parser() -> Parser:
    p = Parser(prog="rocmath-bench fft", add_help=False, allow_abbrev=False,
                description="rocfft-bench's command line on rocmath.fft: time one rocFFT plan on the simulated "
                            "device and print rocfft-bench's report, plus the scipy.fft reference timed the same "
                            "way in the same process and ratio = reference / rocmath (>1: rocmath is faster).",
                epilog="Examples: rocmath-bench fft --length 1024 -b 4096 -o -N 10;  rocmath-bench fft --length "
                       "1024 1024 -t 2 --precision double -o -N 5.  Lengths, strides and offsets are given "
                       "slowest dimension first.")
    a = p.add_argument
    a("-v", "--version", action="store_true", help="print the rocFFT version and exit")
    a("--double", action="store_true", help="double precision (deprecated: use --precision double)")
    a("-t", "--transformType", dest="transform_type", type=int, default=0,
      help="0) complex forward, 1) complex inverse, 2) real forward, 3) real inverse (default 0)")
    a("--precision", type=_precision, default=None, help="single (default), double, half")
    a("-o", "--notInPlace", dest="not_in_place", action="store_true", help="not in place (default: in place)")
    a("--itype", "--inArrType", dest="itype", type=int, default=5,
      help="input array type: 0) interleaved, 1) planar, 2) real, 3) hermitian interleaved, 4) hermitian "
           "planar, 5) unset: the transform's default (default 5)")
    a("--otype", "--outArrType", dest="otype", type=int, default=5, help="output array type (as --itype)")
    a("--length", type=int, nargs="+", default=None, help="1 to 3 lengths, slowest first (unless --token)")
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
    a("-d", "--device", type=int, default=0, help="device id (default 0)")
    a("--verbose", type=int, default=0, help="1: print the plan's decomposition (default 0)")
    a("-N", "--ntrial", type=int, default=1, help="timed executions (default 1)")
    a("-g", "--inputGen", dest="input_gen", type=int, default=1,
      help="input: 0/1) pseudo-random (device/host), 2/3) linearly spaced (device/host) (default 1)")
    a("--isize", type=int, nargs="+", default=None, help="logical input buffer size (elements)")
    a("--osize", type=int, nargs="+", default=None, help="logical output buffer size (elements)")
    a("--scalefactor", type=float, default=1.0, help="scale factor applied to the output (default 1)")
    a("--token", default="", help="the whole problem as a rocFFT test token (complex_forward_len_64_single_ip_"
                                  "batch_1_istride_1_CI_ostride_1_CI_idist_64_odist_64_ioffset_0_0_ooffset_0_0); "
                                  "it overrides the other problem flags")
    a("--verify", type=int, default=0, help="rocmath's: 1 checks one execution against scipy.fft in double "
                                            "precision first (relative L2 and Linf errors; default 0)")
    a("-h", "--help", action="store_true", help="print this help and exit")
    return p


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """Parse rocfft-bench's flags (a ``--token`` sets the problem flags it holds, see :func:`parse_token`).

    Raises
    ------
    UsageError
        For an unknown flag, a bad value, ``--double`` with ``--precision``, a token it cannot
        parse or run, or neither ``--length`` nor ``--token``.
    """
    args = _parser().parse_args(list(argv))
    if args.double and args.precision is not None:
        raise UsageError("--double excludes --precision")
    args.precision = "double" if args.double else (args.precision or "single")
    args.auto_allocate = False
    if args.token:
        for name, value in parse_token(args.token).items():
            setattr(args, name, value)
    if args.length is None:
        raise UsageError("Please specify transform length! (--length, or --token)")
    if not 1 <= len(args.length) <= 3:
        raise UsageError(f"--length: 1 to 3 values expected, got {len(args.length)}")
    if args.verify not in (0, 1):
        raise UsageError(f"Invalid value for --verify {args.verify}")
    if args.ntrial < 0:
        raise UsageError(f"Invalid value for -N {args.ntrial}")
    if args.input_gen not in (0, 1, 2, 3):
        raise UsageError(f"Invalid value for -g {args.input_gen}")
    return args


# --- rocFFT's test tokens -------------------------------------------------------------------------

#: A token's transform words and array type names, as rocFFT's ``fft_params`` writes them.
_TRANSFORMS = ("complex_forward", "complex_inverse", "real_forward", "real_inverse")
_ARRAY_TYPES = ("CI", "CP", "R", "HI", "HP", "UN")
#: The scale factor a token's ``_scale`` stands for (a token does not hold the value: rocFFT's
#: ``from_token`` picks this one, "not zero or one").
TOKEN_SCALE = 0.1239


def token(spec: Any) -> str:
    """rocFFT's test token of a plan (``fft_params::token``): transform, lengths, precision,
    placement, batch, strides with array types, distances and offsets, ``_scale`` when the
    scale factor is not 1.  Lengths and strides slowest first; offsets at least two (rocFFT's
    default ``{0, 0}``)."""
    import rocmath.fft as F

    def ints(values: Sequence[int]) -> str:
        return "".join(f"_{v}" for v in values)

    def offsets(values: Sequence[int]) -> str:
        return ints((*values, *(0,) * (2 - len(values))))

    placement = "ip" if spec.placement == F.ResultPlacement.inplace else "op"
    text = (f"{_TRANSFORMS[int(spec.transform_type)]}_len{ints(spec.lengths[::-1])}_{spec.precision.name}_"
            f"{placement}_batch_{spec.batch}"
            f"_istride{ints(spec.inp.strides[::-1])}_{_ARRAY_TYPES[int(spec.inp.array_type)]}"
            f"_ostride{ints(spec.out.strides[::-1])}_{_ARRAY_TYPES[int(spec.out.array_type)]}"
            f"_idist_{spec.inp.distance}_odist_{spec.out.distance}"
            f"_ioffset{offsets(spec.inp.offsets)}_ooffset{offsets(spec.out.offsets)}")
    return text + ("_scale" if spec.scale != 1.0 else "")


def parse_token(text: str) -> dict[str, Any]:
    """The problem a rocFFT test token describes, as the values of :func:`parse_args`'s flags.

    The grammar is ``fft_params::from_token``'s: ``_``-separated words; the transform
    (``complex``/``real``, ``forward``/``inverse``), ``len`` and the lengths, the precision,
    ``ip``/``op``, ``batch`` and its count; then, in any order, ``istride`` (strides, then an
    array type: CI, CP, R, HI, HP or UN), ``ostride`` (likewise), ``idist``, ``odist``,
    ``ioffset`` and ``ooffset`` (values); then optionally ``CB``, ``scale``, ``multigpu`` N and
    ``autoallocation`` on/off.

    Raises
    ------
    UsageError
        For a malformed token, and for what this command cannot run: callbacks (``CB``), fields
        and bricks (``ifield``/``ofield``) and more than one GPU (``multigpu``).
    """
    words = text.split("_")
    pos = 0

    def fail(why: str) -> UsageError:
        return UsageError(f"Unable to parse token {text!r}: {why}")

    def word() -> str:
        nonlocal pos
        if pos >= len(words):
            raise fail("it ends too early")
        pos += 1
        return words[pos - 1]

    def number(after: str) -> int:
        value = word()
        if not value.isdigit():
            raise fail(f"expected a number after {after!r}, got {value!r}")
        return int(value)

    def numbers() -> list[int]:
        nonlocal pos
        values = []
        while pos < len(words) and words[pos].isdigit():
            values.append(int(words[pos]))
            pos += 1
        return values

    def array_type() -> int:
        value = word()
        return _ARRAY_TYPES.index(value) if value in _ARRAY_TYPES else _ARRAY_TYPES.index("UN")

    kind, direction = word(), word()
    if f"{kind}_{direction}" not in _TRANSFORMS:
        raise fail(f"unknown transform {kind}_{direction}")
    out: dict[str, Any] = {"transform_type": _TRANSFORMS.index(f"{kind}_{direction}"), "istride": None,
                           "ostride": None, "itype": 5, "otype": 5, "idist": 0, "odist": 0, "ioffset": None,
                           "ooffset": None}
    if word() != "len":
        raise fail("expected 'len' after the transform")
    out["length"] = numbers()
    if not out["length"]:
        raise fail("no lengths")
    out["precision"] = word()
    if out["precision"] not in ("half", "single", "double"):
        raise fail(f"unknown precision {out['precision']!r}")
    placement = word()
    if placement not in ("ip", "op"):
        raise fail(f"expected ip or op, got {placement!r}")
    out["not_in_place"] = placement == "op"
    if word() != "batch":
        raise fail("expected 'batch'")
    out["batch"] = number("batch")
    while pos < len(words):
        key = words[pos]
        if key in ("istride", "ostride"):
            pos += 1
            out[key] = numbers() or None
            out["itype" if key == "istride" else "otype"] = array_type()
        elif key in ("idist", "odist"):
            pos += 1
            out[key] = number(key)
        elif key in ("ioffset", "ooffset"):
            pos += 1
            out[key] = numbers()
        elif key in ("ifield", "ofield"):
            raise fail("fields and bricks are not run by rocmath-bench fft (use rocmath.fft's field API)")
        else:
            break
    if pos < len(words) and words[pos] == "CB":
        raise fail("rocmath.fft has no load/store callbacks")
    if pos < len(words) and words[pos] == "scale":
        out["scalefactor"] = TOKEN_SCALE
        pos += 1
    if pos < len(words) and words[pos] == "multigpu":
        pos += 1
        if number("multigpu") > 1:
            raise fail("rocmath-bench fft runs on one device")
    if pos < len(words) and words[pos] == "autoallocation":
        pos += 1
        setting = word()
        if setting not in ("on", "off"):
            raise fail(f"autoallocation is on or off, got {setting!r}")
        out["auto_allocate"] = setting == "on"
    if pos < len(words):
        raise fail(f"unexpected {'_'.join(words[pos:])!r}")
    return out


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

    def __init__(self, spec: Any, input_gen: int = 1, auto_allocate: bool = False):
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
        out = spec.out
        inplace = spec.placement == F.ResultPlacement.inplace
        for j in range(inp.buffers):
            size = inp.offsets[j] * inp.cs + ep.in_extent[j]
            if inplace:  # the output shares the buffer: room for it too (in-place real forward needs more)
                size = max(size, out.offsets[j] * out.cs + ep.out_extent[j])
            flat = np.zeros(max(size, 1), dtype=store)  # batch 0: no elements, still a buffer
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
        self.dev_out = self.dev_in if inplace else [
            rm.zeros(max(out.offsets[j] * out.cs + ep.out_extent[j], 1), store) for j in range(out.buffers)]
        self.work = None
        if ep.work_bytes and not auto_allocate:  # a work buffer allocated once, as rocfft-bench's plan keeps one
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

    def output(self) -> np.ndarray:
        """The logical output elements the device holds now, ``(batch, slowest, ..., fastest)``."""
        out = self.spec.out
        idx = _element_index(self.spec.out_lengths, out.strides, out.distance, self.spec.batch)
        flats = [d.get(self.stream).astype(np.float64) for d in self.dev_out]
        base = [out.offsets[j] * out.cs for j in range(out.buffers)]
        if not out.complex:
            return flats[0][base[0] + idx]
        if out.planar:
            return flats[0][base[0] + idx] + 1j * flats[1][base[1] + idx]
        return flats[0][base[0] + 2 * idx] + 1j * flats[0][base[0] + 2 * idx + 1]

    def expected(self) -> np.ndarray:
        """The transform of the input as stored on the device, by scipy.fft in double precision,
        scaled by the plan's scale factor."""
        import scipy.fft

        import rocmath.fft as F

        x = self.logical
        if np.iscomplexobj(x):  # the values the device got: each part rounded to the storage type
            x = x.real.astype(self.store).astype(np.float64) + 1j * x.imag.astype(self.store).astype(np.float64)
        else:
            x = x.astype(self.store).astype(np.float64)
        tt, axes, spec = self.spec.transform_type, self.axes, self.spec
        if tt == F.TransformType.complex_forward:
            y = scipy.fft.fftn(x, axes=axes, workers=WORKERS)
        elif tt == F.TransformType.complex_inverse:
            y = scipy.fft.ifftn(x, axes=axes, norm="forward", workers=WORKERS)
        elif tt == F.TransformType.real_forward:
            y = scipy.fft.rfftn(x, axes=axes, workers=WORKERS)
        elif math.prod(spec.lengths):
            y = scipy.fft.irfftn(x, s=tuple(spec.lengths[::-1]), axes=axes, norm="forward", workers=WORKERS)
        else:
            y = np.zeros((spec.batch, *spec.lengths[::-1]))
        return y * spec.scale

    def close(self) -> None:
        self.stream.synchronize()
        self.stream.destroy()


def relative_errors(got: np.ndarray, expected: np.ndarray) -> tuple[float, float]:
    """rocFFT's accuracy measures: ``(||got - expected||_2 / ||expected||_2, max |got - expected| / max
    |expected|)`` (the absolute errors when ``expected`` is zero)."""
    diff = np.abs(np.asarray(got, np.complex128) - expected)
    if diff.size == 0:
        return 0.0, 0.0
    l2, linf = float(np.linalg.norm(np.abs(expected))), float(np.abs(expected).max())
    d2, dinf = float(np.linalg.norm(diff)), float(diff.max())
    return (d2 / l2 if l2 > 0 else d2), (dinf / linf if linf > 0 else dinf)


# --- running ------------------------------------------------------------------------------------


def _echo(args: argparse.Namespace, argv: Sequence[str], out: TextIO) -> None:
    """What rocfft-bench prints about its parameters before running."""
    given = set(argv)
    if given & {"-N", "--ntrial"}:
        out.write(f"Running profile with {args.ntrial} samples\n")
    if args.token:  # rocfft-bench echoes the token instead of the flags
        out.write(f"Reading fft params from token:\n{args.token}\n")
        return
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
        0, or 1 when ``--verify 1`` finds an error above tolerance (failures raise).
    """
    from rocmath.testing.tolerance import tol

    spec = plan_spec(args)
    _echo(args, argv, out)
    out.write(f"Token: {token(spec)}\n")
    out.write(device_line())
    s = Setup(spec, args.input_gen, args.auto_allocate)
    errors: tuple[float, float] | None = None
    try:
        if args.verbose:
            out.write(s.plan.exec_plan.describe() + "\n")  # type: ignore[union-attr]
        reference = s.reference()
        if args.verify:  # one execution on fresh input, against scipy.fft in double precision
            s.reset()
            s.execute()
            errors = relative_errors(s.output(), s.expected())
        # A warm-up round (as rocfft-bench's), then the trials; rocmath's and the reference's
        # interleaved, so that both see the same machine load.
        times_ns, ref_ns = time_each([s.execute, reference], args.ntrial, cold=1, before=s.reset)
    finally:
        s.close()
    times, ref_times = [t / 1e6 for t in times_ns], [t / 1e6 for t in ref_ns]
    n = math.prod(spec.lengths)
    k = 2.5 if spec.transform_type.is_real else 5.0
    ops = spec.batch * k * n * (math.log2(n) if n > 1 else 0.0)
    out.write("\nExecution gpu time:" + "".join(f" {fmt_g(t)}" for t in times) + " ms\n")
    out.write("Execution gflops:  " + "".join(f" {fmt_g(ops / (1e6 * t)) if t > 0 else 'inf'}" for t in times) + "\n")
    out.write(f"Reference scipy.fft time (workers={WORKERS}, same process):"
              + "".join(f" {fmt_g(t)}" for t in ref_times) + " ms\n")
    if times:
        med, ref_med = statistics.median(times), statistics.median(ref_times)
        lo, hi = ratio_interval(ref_ns, times_ns)
        out.write(f"ratio (reference median / rocmath median): {fmt_g(ref_med / med) if med > 0 else 'inf'}"
                  f" (95 % bootstrap interval {fmt_g(lo)} to {fmt_g(hi)})\n")
    if errors is None:
        return 0
    limit = tol(np.dtype(s.store), "fft", n)
    passed = max(errors) <= limit
    out.write(f"Verification against scipy.fft (double precision): relative L2 error {fmt_g(errors[0])}, relative "
              f"Linf error {fmt_g(errors[1])}, tolerance {fmt_g(limit)}: {'passed' if passed else 'FAILED'}\n")
    if not passed:
        sys.stderr.write(f"rocmath-bench fft: {token(spec)}: error above tolerance\n")
        return 1
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

    prog = "rocmath-bench fft"
    out = out or sys.stdout
    try:
        if not argv or "-h" in argv or "--help" in argv:
            return print_help(_parser(), out)
        if "--version" in argv or "-v" in argv:
            import rocmath.fft as F

            out.write(f"version {F.get_version_string()}\n")
            return 0
        args = parse_args(argv)
        select_device(args.device, f"Invalid value for --device {args.device}")
        plan_spec(args)  # parameters rocFFT rejects are a usage error, before any output
    except UsageError as e:
        return usage_failure(prog, e)
    try:
        return run(args, out, argv)
    except RocmathError as e:
        sys.stderr.write(f"{prog}: failed: {e}\n")
        return 1
