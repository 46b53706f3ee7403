"""``rocmath-bench blas``: rocblas-bench's command line, run on rocmath.blas.

``rocmath-bench blas -f gemm -r f32_r --transposeA N --transposeB T -m 128 -n 128 -k 128 -i 10 -j 2 -v 1``
takes rocblas-bench's flags (same names, short forms and defaults), builds the operands
on the simulated device, calls the rocmath.blas function the function name and types
select (``-f scal -r c --b_type s`` is ``csscal``), times ``cold_iters`` untimed then
``iters`` timed calls between stream synchronizations, and prints rocblas-bench's two
CSV lines: the argument columns of the function (as rocblas-bench's ArgumentModel lists
them), ``cold_iters,hot_iters``, ``rocblas-Gflops`` (where rocBLAS counts flops),
``rocblas-GB/s`` (memory-bound functions), ``us``; with ``-v 1`` also ``CPU-Gflops``,
``CPU-us`` and the ``norm_error_*`` columns (relative Frobenius errors of the host- and
device-pointer-mode results against NumPy/SciPy).  Four columns are rocmath's own and come
last: ``ref-us``, the NumPy/SciPy reference timed the same way in the same process (the hot
calls run in up to 11 rounds, rocmath's then the reference's, interleaved), ``ratio``, the
reference's median time per call over the rounds divided by rocmath's (> 1: rocmath is
faster), and ``ratio-lo``/``ratio-hi``, its bootstrap 95 % interval.

Every function is an entry of :data:`~rocmath.bench.rocblas_families.FAMILIES`: its
operands, CSV columns, flop and byte counts, NumPy/SciPy reference and how its
verification errors are reported; the ``_batched``, ``_strided_batched`` and ``_ex``
forms and every precision come from the same entry.  Leading dimensions, increments and
strides given are used as given; omitted ones are rocblas-bench's defaults (128, 1,
128 * 128) raised to what the problem needs.  As rocblas-bench, gemm and gemm_ex raise a
too small leading dimension given (an ``INFO`` line says so), and strided functions
raise the stride of an output whose entries would overlap unless ``--any_stride true``.
Scalars are rounded to their type first (rocblas-bench's ``get_alpha<T>``); rot's c and
s are drawn like the data.  ``--pointer_mode host|device`` (rocmath's own flag) sets the
pointer mode of the timed calls; by default rocblas-bench's: host, but device for rotm and
the batched rotg and rotmg.  As rocblas-bench, rotg and rotmg take host values in host
pointer mode (rotg's first a and b are --alpha and --beta) and return the new ones, rotm's
batched forms are checked in device pointer mode alone, rotm over its four flags (its param
from rotmg), and the plain rotg and rotmg print the bare ``rocblas-us,CPU-us`` line.

gemm_ex3 and its batched forms (rocBLAS's beta API) take rocblas-bench's
``--composite_compute_type`` (f32, f8_f8_f32, f8_bf8_f32, bf8_f8_f32, bf8_bf8_f32; rocblas-bench
has no default: omitted, it passes an invalid compute type, which gemm_ex3 rejects) and the
``f8_r``/``bf8_r`` types, whose data are rocblas-bench's initialization rounded to nearest
into them; ``-v 1`` rounds half and float operands into the compute type's float8 formats as
the call does (stochastically with ``--flags 32``, from the same ``SR_SEED_A/B/C``).

Exit status: 0 on success, 1 when ``-v 1``/``-t 1`` finds an error above tolerance (or
the run fails), 2 for a usage error (unknown function or flag, a type combination
rocBLAS does not have, arguments the call rejects).
"""

from __future__ import annotations

import argparse
import inspect
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

import numpy as np

from ._cli_common import (
    Parser,
    Rounds,
    UsageError,
    bool_value,
    device_line,
    fmt_g,
    letter,
    print_help,
    select_device,
    time_rounds,
    usage_failure,
)
from .rocblas_families import FAMILIES, FLOAT8, Family, Float8, Operand, ex3_key

__all__ = ["FAMILIES", "Family", "Operand", "Problem", "UsageError", "main", "parse_args", "resolve", "run"]

DEFAULT_SIZE = 128
DEFAULT_LD = 128
DEFAULT_STRIDE = 128 * 128
SEED = 69069  # fixed, so runs are reproducible (rocblas-bench seeds its generator too)

#: ``-r``/``--a_type`` short forms, as rocblas-bench reads them.
_TYPE_LETTERS = {"h": "f16_r", "s": "f32_r", "d": "f64_r", "c": "f32_c", "z": "f64_c"}
_TYPE_ROLES = ("a_type", "b_type", "c_type", "d_type", "compute_type")
#: ``--composite_compute_type`` names (rocblas_computetype without invalid).
_COMPOSITE = ("f32", "f8_f8_f32", "f8_bf8_f32", "bf8_f8_f32", "bf8_bf8_f32")
_INITIALIZATIONS = ("rand_int", "trig_float", "hpl", "zero")
#: Parameter names (lower-cased) of an operand under another name: the packed matrices' AP.
_PARAM_KEYS = {"ap": "a"}


# --- the command line ------------------------------------------------------------------------


def _parser() -> Parser:
    p = Parser(prog="rocmath-bench blas", add_help=False, allow_abbrev=False,
                description="rocblas-bench's command line on rocmath.blas: time one rocBLAS function on the "
                            "simulated device and print rocblas-bench's CSV, plus ref-us (the NumPy/SciPy "
                            "reference timed the same way, interleaved in rounds), ratio (median reference / "
                            "median rocmath time over the rounds; >1: rocmath is faster) and ratio-lo, ratio-hi "
                            "(its bootstrap 95% interval).",
                epilog="Examples: rocmath-bench blas -f gemm -r s -m 512 -n 512 -k 512 --transposeB T;  "
                       "rocmath-bench blas -f gemv -r d -m 1024 -n 1024 -v 1;  rocmath-bench blas -f axpy -r d "
                       f"-n 1000000.  Functions: {', '.join(_function_names())}.")
    a = p.add_argument
    a("-f", "--function", default=None, help="function: gemm, gemm_strided_batched, gemm_ex, axpy, dot, trsm, ...")
    a("-r", "--precision", default="f32_r", help="h, s, d, c, z, f16_r, f32_r, f64_r, bf16_r, f32_c, f64_c, i8_r, "
                                                 "i32_r, f8_r, bf8_r (default f32_r)")
    for role in _TYPE_ROLES:
        a(f"--{role}", default=None, help=f"{role} (default: --precision)")
    a("--composite_compute_type", default=None,
      help=f"gemm_ex3's compute type: {', '.join(_COMPOSITE)} (no default: rocblas-bench's is invalid)")
    a("-m", "--sizem", dest="M", type=int, default=DEFAULT_SIZE, help="rows (default 128)")
    a("-n", "--sizen", dest="N", type=int, default=DEFAULT_SIZE, help="columns, vector length (default 128)")
    a("-k", "--sizek", dest="K", type=int, default=DEFAULT_SIZE, help="inner size (default 128)")
    a("--kl", type=int, default=32, help="sub-diagonals of band matrices (default 32)")
    a("--ku", type=int, default=32, help="super-diagonals of band matrices (default 32)")
    for ld in ("lda", "ldb", "ldc", "ldd"):
        a(f"--{ld}", type=int, default=None, help=f"leading dimension (default {DEFAULT_LD}, raised to the rows)")
    a("--any_stride", type=bool_value, default=False, help="use output strides as given, even overlapping")
    for key in "abcdxy":
        a(f"--stride_{key}", type=int, default=None,
          help=f"stride of {key} (default {DEFAULT_STRIDE}, raised to the entry size)")
    a("--incx", type=int, default=1, help="increment of x (default 1)")
    a("--incy", type=int, default=1, help="increment of y (default 1)")
    a("--alpha", type=float, default=1.0, help="alpha (default 1)")
    a("--alphai", type=float, default=0.0, help="imaginary part of alpha (default 0)")
    a("--beta", type=float, default=0.0, help="beta (default 0)")
    a("--betai", type=float, default=0.0, help="imaginary part of beta (default 0)")
    a("--transposeA", type=letter("NTC"), default="N", help="N, T or C (default N)")
    a("--transposeB", type=letter("NTC"), default="N", help="N, T or C (default N)")
    a("--side", type=letter("LRB"), default="L", help="L or R (default L)")
    a("--uplo", type=letter("ULF"), default="U", help="U or L (default U)")
    a("--diag", type=letter("NU"), default="N", help="N or U (default N)")
    a("--batch_count", "--batch", dest="batch_count", type=int, default=1, help="batch count (default 1)")
    a("-i", "--iters", type=int, default=10, help="timed (hot) calls (default 10)")
    a("-j", "--cold_iters", type=int, default=2, help="untimed calls first (default 2)")
    a("-v", "--verify", type=int, default=0, help="1: check against NumPy/SciPy, print norm errors (default 0)")
    a("-t", "--test", type=int, default=0, help="1: check against NumPy/SciPy (pass/fail only)")
    a("--initialization", default="hpl", help="hpl (uniform in [-0.5, 0.5]), rand_int (1..10), trig_float "
                                              "(sin/cos), zero (default hpl)")
    a("--algo", type=int, default=0, help="gemm_ex algo (default 0)")
    a("--solution_index", type=int, default=0, help="gemm_ex solution index (default 0)")
    a("--flags", type=int, default=0, help="gemm_ex flags (default 0)")
    a("--geam_ex_op", type=int, default=0, help="geam_ex operation (default 0)")
    a("--atomics_allowed", action="store_true", help="allow atomics (the default)")
    a("--atomics_not_allowed", action="store_true", help="disallow atomics")
    a("--device", type=int, default=0, help="device (default 0)")
    a("--api", type=int, choices=(0, 1), default=0, help="0: the C API, 1: its ILP64 _64 functions (default 0)")
    a("--outofplace", action="store_true", help="gemm_ex: D apart from C; trmm: C apart from B")
    a("--workspace", type=int, default=0, help="fixed workspace bytes (default 0: rocBLAS-managed)")
    a("--math_mode", type=int, default=0, help="rocblas_math_mode (default 0)")
    a("--log_function_name", action="store_true", help="put the function name first in the CSV")
    a("--log_datatype", action="store_true", help="put the datatypes first in the CSV")
    a("-z", "--z", dest="z", type=bool_value, default=False, help="both --log_function_name and --log_datatype")
    a("--pointer_mode", choices=("host", "device", "0", "1"), default=None,
      help="rocmath extension: pointer mode of the timed calls (default rocblas-bench's: host; device for "
           "rotm and the batched rotg, rotmg)")
    a("--version", action="store_true", help="print the version and exit")
    a("-h", "--help", action="store_true", help="print this help and exit")
    return p


def _function_names() -> list[str]:
    from rocmath.blas._benchline import EX_SUFFIXES

    names = []
    for key in FAMILIES:
        tail = next((t for t in EX_SUFFIXES if key.endswith(t)), "")
        op = key[: len(key) - len(tail)]
        names += [f"{op}{flavour}{tail}" for flavour in ("", "_batched", "_strided_batched")]
    return names


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """Parse rocblas-bench's flags (no ``-f`` is allowed here: :func:`resolve` reports it).

    Raises
    ------
    UsageError
        For an unknown flag or a bad value.
    """
    args = _parser().parse_args(list(argv))
    for flag, value in (("-m", args.M), ("-n", args.N), ("-k", args.K)):
        if value < 0:
            raise UsageError(f"Invalid value for {flag} {value}")
    for key in "abcdxy":
        if (stride := getattr(args, f"stride_{key}")) is not None and stride < 0:
            raise UsageError(f"Invalid value for --stride_{key} {stride}")
    if args.verify not in (0, 1):
        raise UsageError(f"Invalid value for -v or --verify {args.verify}")
    # rocblas-bench passes an unknown name on as an invalid compute type: refuse it here.  "invalid" is
    # how bench lines print one (of a call that failed): it parses, and gemm_ex3's type check refuses it.
    if args.composite_compute_type not in (None, *_COMPOSITE, "invalid"):
        raise UsageError(f"Invalid value for --composite_compute_type {args.composite_compute_type} "
                         f"(rocmath-bench blas has {', '.join(_COMPOSITE)})")
    if args.initialization not in _INITIALIZATIONS:
        raise UsageError(f"Invalid value for --initialization {args.initialization} "
                         f"(rocmath-bench blas has {', '.join(_INITIALIZATIONS)})")
    if args.z:
        args.log_function_name = args.log_datatype = True
    return args


# --- problems --------------------------------------------------------------------------------


@dataclass
class Geometry:
    """Where one operand's entries are: a matrix (rows x cols, ld) or a vector (n, inc)."""

    vector: bool
    rows: int
    cols: int
    ld: int
    stride: int  # the stride passed (strided form), or the spacing of the batched entries
    count: int
    buffer: str  # the operand whose memory holds it (itself unless aliased)

    @property
    def span(self) -> int:
        """Elements one entry covers."""
        if self.vector:
            return (self.rows - 1) * abs(self.ld) + 1 if self.rows > 0 else 0
        return self.ld * (self.cols - 1) + self.rows if self.rows > 0 and self.cols > 0 else 0

    @property
    def minimum_stride(self) -> int:
        """rocblas-bench's smallest non-overlapping stride: ``n * |inc|`` or ``ld * cols``."""
        return self.rows * abs(self.ld) if self.vector else self.ld * self.cols

    @property
    def size(self) -> int:
        return max(1, (self.count - 1) * self.stride + self.span if self.count > 0 else 1)

    def offsets(self) -> np.ndarray:
        return np.arange(self.count, dtype=np.int64) * self.stride


@dataclass
class Problem:
    """A resolved command line: the function, its sizes, types, layouts and the derived values."""

    args: argparse.Namespace
    function: str
    family: Family
    flavour: str
    fname: str
    precision: Any  # rocmath.Precision of the routine (its x/A type; the compute type of _ex; S for gemm_ex3)
    types: dict[str, str]  # _TYPE_ROLES' datatypes; gemm_ex3's also "composite_compute_type"
    m: int
    n: int
    k: int
    trans_a: str
    trans_b: str
    side: str
    uplo: str
    diag: str
    batch_count: int
    type_flags: frozenset[str] = frozenset()  # the type flags that select the routine (a_type for -r)
    ld: dict[str, int] = field(default_factory=dict)
    geometry: dict[str, Geometry] = field(default_factory=dict)
    info: list[str] = field(default_factory=list)

    @property
    def complex(self) -> bool:
        return bool(self.precision.is_complex)

    @property
    def size(self) -> int:
        return int(self.precision.itemsize)

    @property
    def real_alpha(self) -> bool:
        """scal with a real alpha and a complex x (csscal, zdscal)."""
        return self.complex and not self.scalar_precision("alpha").is_complex

    @property
    def real_s(self) -> bool:
        """rot with a real s and complex vectors (csrot, zdrot)."""
        return self.complex and not self.scalar_precision("s").is_complex

    def operand_precision(self, key: str) -> Any:
        """The precision of an operand (or ``"result"``): its type flag's where the routine has that
        flag (the ``_ex`` functions, hss/tss gemv's y), else the routine's; a :class:`Float8` for
        gemm_ex3's f8_r and bf8_r."""
        from rocmath.precision import Precision

        roles = self.family.ex_roles
        if roles and key in roles and roles[key] in self.type_flags:
            name = self.types[roles[key]]
            return FLOAT8.get(name) or Precision.from_datatype(name)
        return self.precision

    def scalar_precision(self, name: str) -> Any:
        """The precision a scalar argument is stored in (real for csscal's alpha, herk's...)."""
        from rocmath.blas._benchline import scalar_precision

        p = scalar_precision(self.fname, name, self.type_arguments())
        return p if p is not None else self.precision

    def type_arguments(self) -> dict[str, Any]:
        """The datatype arguments of an ``_ex`` call, by parameter name (gemm_ex3's compute type a
        ComputeType)."""
        from rocmath.blas import ComputeType, Datatype
        from rocmath.blas._benchline import ex_type_flags, parse_name

        _, op, _, ex = parse_name(self.fname)
        if not ex:
            return {}
        return {param: (ComputeType if flag == "composite_compute_type" else Datatype)[
                    self.types["a_type" if flag == "r" else flag]]
                for param, flag in ex_type_flags(ex)[op].items()}


def _datatype(text: str, flag: str) -> str:
    from rocmath.blas import Datatype

    name = _TYPE_LETTERS.get(text.lower(), text.lower())
    if name not in Datatype.__members__ or name == "invalid":
        raise UsageError(f"Invalid value for {flag} {text}")
    return name


def resolve(args: argparse.Namespace) -> Problem:
    """Choose the rocmath.blas function and derive sizes, leading dimensions and strides.

    Raises
    ------
    UsageError
        For an unknown function or a type combination rocBLAS does not have.
    """
    import rocmath.blas as blas
    from rocmath.blas._benchline import EX_SUFFIXES, EX_TYPE_FLAGS, functions_for
    from rocmath.precision import Precision, S

    name = args.function
    if not name:
        raise UsageError("no function: give -f/--function (e.g. -f gemm)")
    precision = _datatype(args.precision, "--precision")
    types = {role: _datatype(getattr(args, role), f"--{role}") if getattr(args, role) else precision
             for role in _TYPE_ROLES}
    ex = next((t for t in EX_SUFFIXES if name.endswith(t)), "")
    base = name[: len(name) - len(ex)]
    flavour = next((f for f in ("_strided_batched", "_batched") if base.endswith(f)), "")
    op = base[: len(base) - len(flavour)]
    # (an _ex suffix before the flavour, gemm_ex3_batched, is no function: not the _ex family's)
    family = None if op.endswith(EX_SUFFIXES) else FAMILIES.get(f"{op}{ex}")
    if family is None:
        raise UsageError(f"Invalid value for --function {name}: rocmath-bench blas runs "
                         f"{', '.join(_function_names())}")
    if ex:
        if not hasattr(blas, name):
            raise UsageError(f"Invalid value for --function {name}: rocBLAS has no {name}")
        fname = name
        type_flags = frozenset(_TYPE_ROLES)
        if ex == "_ex3":
            types["composite_compute_type"] = args.composite_compute_type or "invalid"
            _check_ex3_types(name, types, args.composite_compute_type is None)
            compute = S  # alpha, beta and the accumulation are float in every compute type
        else:
            flags = EX_TYPE_FLAGS[op]
            for role in dict.fromkeys("a_type" if flag == "r" else flag for flag in flags.values()):
                if types[role] in FLOAT8:  # no Precision for them: refuse here, not with a traceback
                    raise UsageError(f"Invalid combination --function {name} --{role} {types[role]}: rocBLAS "
                                     "takes f8_r and bf8_r in gemm_ex3 and its batched forms alone")
            flag = flags.get("compute_type") or flags["execution_type"]
            compute = Precision.from_datatype(types["a_type" if flag == "r" else flag])  # trsm_ex: -r
    else:
        candidates = functions_for(name)
        fname = next((f for f, flags in candidates.items()
                      if all(types["a_type" if flag == "r" else flag] == dt for flag, dt in flags.items())), "")
        if not fname:
            combos = "; ".join(" ".join(f"-r {dt}" if flag == "r" else f"--{flag} {dt}" for flag, dt in flags.items())
                               for flags in candidates.values())
            raise UsageError(f"Invalid combination --function {name} --a_type {types['a_type']} --b_type "
                             f"{types['b_type']} --c_type {types['c_type']} (rocBLAS has: {combos})")
        flags = candidates[fname]
        compute = Precision.from_datatype(flags.get("r") or flags["a_type"])
        type_flags = frozenset("a_type" if flag == "r" else flag for flag in flags)
    if args.api == 1 and not hasattr(blas, f"{fname}_64"):
        raise UsageError(f"Invalid value for --api 1: rocBLAS has no {fname}_64")
    p = Problem(args=args, function=name, family=family, flavour=flavour, fname=fname, precision=compute,
                types=types, m=args.M, n=args.N, k=args.K, trans_a=args.transposeA, trans_b=args.transposeB,
                side=args.side, uplo=args.uplo, diag=args.diag, batch_count=args.batch_count if flavour else 1,
                type_flags=type_flags)
    if not flavour and args.batch_count > 1 and family.adjust_ld:
        p.info.append(f"batch_count can only be 1 for function {name}, set batch_count = 1")
    _derive_layout(p)
    return p


def _check_ex3_types(name: str, types: Mapping[str, str], defaulted: bool) -> None:
    """gemm_ex3's types must be a combination it implements (rocmath.blas.beta.GEMM_EX3_TYPES).

    Raises
    ------
    UsageError
        Naming the combination given and listing those gemm_ex3 has.
    """
    from rocmath.blas.beta import GEMM_EX3_TYPES

    if types["c_type"] == types["d_type"] and ex3_key(types) in GEMM_EX3_TYPES:
        return
    given = " ".join(f"--{role} {types[role]}" for role in ("a_type", "b_type", "c_type", "d_type"))
    compute = ("(none given: rocblas-bench then passes an invalid compute type)" if defaulted
               else types["composite_compute_type"])
    combos = "; ".join(" ".join(t.name for t in key) for key in GEMM_EX3_TYPES)
    raise UsageError(f"Invalid combination --function {name} {given} --composite_compute_type {compute} "
                     f"(gemm_ex3 has, as a_type b_type c_type=d_type composite_compute_type: {combos})")


def _derive_layout(p: Problem) -> None:
    """Leading dimensions, increments and strides: given, or rocblas-bench's defaults raised to
    what the problem needs (the INFO lines say where a given value was raised)."""
    args, fam = p.args, p.family
    aliases = {} if args.outofplace else dict(fam.aliases)
    entries = max(p.batch_count, 0)
    for op in fam.operands:
        shape = op.shape(p)
        rows, cols = (shape[0], 1) if op.vector else shape
        if op.key in aliases:
            target = p.geometry[aliases[op.key]]
            p.ld[op.ld] = target.ld
            p.geometry[op.key] = Geometry(op.vector, rows, cols, target.ld, target.stride, entries, target.buffer)
            continue
        if op.vector:
            ld = getattr(args, op.ld) if op.ld else 1  # a packed matrix: contiguous
        else:
            given, least = getattr(args, op.ld if hasattr(args, op.ld) else f"ld{op.bench}"), max(1, rows)
            ld = max(DEFAULT_LD, least) if given is None else given
            if given is not None and given < least and fam.adjust_ld:
                p.info.append(f"{op.ld} < min_{op.ld}, set {op.ld} = {least}")
                ld = least
        if op.ld:
            p.ld[op.ld] = ld
        g = Geometry(op.vector, rows, cols, ld, 0, entries, op.key)
        if p.flavour == "_strided_batched":
            given = getattr(args, f"stride_{op.bench}")
            g.stride = max(DEFAULT_STRIDE, g.minimum_stride) if given is None else given
            if given is not None and given < g.span and op.io != "in" and not args.any_stride and entries > 1:
                # Entries of an output would overlap: rocblas-bench raises the stride (for gemm's C).
                least = g.minimum_stride
                p.info.append(f"stride_{op.bench} < min_stride_{op.bench}, set stride_{op.bench} = {least}")
                g.stride = least
        elif p.flavour == "_batched":
            g.stride = max(g.span, 1)  # separate entries, each behind its own pointer
        p.geometry[op.key] = g


# --- data --------------------------------------------------------------------------------------


def _to_storage(values: np.ndarray, precision: Any) -> np.ndarray:
    from rocmath.float8 import to_f8
    from rocmath.precision import BF16, to_bfloat16

    if isinstance(precision, Float8):  # rocblas-bench's rocblas_f8(float(x)): round to nearest
        return to_f8(np.asarray(values.real), precision.fmt)
    if precision is BF16:
        return to_bfloat16(np.asarray(values.real, dtype=np.float32))
    if precision.dtype.kind in "iu":
        return np.asarray(values.real).astype(np.int64).astype(precision.dtype)
    if precision.dtype.kind != "c":
        values = values.real
    return np.asarray(values).astype(precision.dtype)


def _to_reference(stored: np.ndarray, precision: Any) -> np.ndarray:
    """Stored values in the type the reference computes in (int64 for integers, which wrap
    to int32 when stored back, as rocBLAS's int32 arithmetic; float32 for float8 codes)."""
    from rocmath.float8 import from_f8
    from rocmath.precision import BF16, from_bfloat16

    if isinstance(precision, Float8):
        return from_f8(stored, precision.fmt)
    if precision is BF16:
        return from_bfloat16(stored)
    if precision.dtype.kind in "iu":
        return stored.astype(np.int64)
    return stored.astype(precision.compute_dtype)


def _random(rng: np.random.Generator, method: str, size: int, precision: Any, second: bool) -> np.ndarray:
    """``size`` values by rocblas-bench's initialization (``second``: the cos half of trig_float);
    float8 ones as real ones (:func:`_to_storage` rounds them)."""
    if precision.dtype.kind in "iu" and not isinstance(precision, Float8) and precision.letter != "bf":
        # rocBLAS's integers: small positive values
        return rng.integers(1, 4, size).astype(np.float64)
    if method == "zero":
        return np.zeros(size)
    if method == "trig_float":
        i = np.arange(size, dtype=np.float64)
        return np.cos(i) if second else np.sin(i)

    def part() -> np.ndarray:
        return rng.integers(1, 11, size).astype(np.float64) if method == "rand_int" else rng.uniform(-0.5, 0.5, size)

    return part() + 1j * part() if precision.is_complex else part()


def _stack(flat: np.ndarray, g: Geometry) -> np.ndarray:
    """The entries of an operand as a ``(count, rows, cols)`` or ``(count, n)`` copy."""
    if g.vector:
        n, inc = g.rows, g.ld
        pos = np.arange(n, dtype=np.int64) * inc if inc > 0 else (n - 1 - np.arange(n, dtype=np.int64)) * -inc
        return flat[g.offsets()[:, None] + pos[None, :]]
    isz = flat.itemsize
    view = np.lib.stride_tricks.as_strided(flat, (g.count, g.rows, g.cols), (g.stride * isz, isz, g.ld * isz),
                                           writeable=False)
    return np.array(view)


def _scatter(flat: np.ndarray, g: Geometry, values: np.ndarray) -> None:
    """Write ``(count, ...)`` entry values into a flat buffer."""
    if g.vector:
        n, inc = g.rows, g.ld
        pos = np.arange(n, dtype=np.int64) * inc if inc > 0 else (n - 1 - np.arange(n, dtype=np.int64)) * -inc
        flat[g.offsets()[:, None] + pos[None, :]] = values
        return
    isz = flat.itemsize
    view = np.lib.stride_tricks.as_strided(flat, (g.count, g.rows, g.cols), (g.stride * isz, isz, g.ld * isz))
    view[...] = values


def _condition(values: np.ndarray, kind: str) -> np.ndarray:
    """Shape random entries for their role: a triangular matrix to solve with is made
    diagonally dominant (off-diagonal scaled by 1/n, diagonal 1 + |d|) so the solve is
    well conditioned; a Hermitian matrix gets a real diagonal."""
    if kind == "general" or values.ndim != 3 or values.shape[-1] == 0:
        return values
    n = values.shape[-1]
    eye = np.eye(n, dtype=bool)
    d = np.diagonal(values, axis1=-2, axis2=-1)
    if kind == "triangular":
        return np.where(eye, 1 + np.abs(d)[..., None, :], values / n)
    return np.where(eye, d.real[..., None, :], values)


def _unpacked(p: Problem, op: Operand, stacked: np.ndarray) -> np.ndarray:
    """A band or packed operand's stacked entries as full matrices (zero where nothing is stored)."""
    if op.unpack is None:
        return stacked
    idx, i, j, shape = op.unpack(p)
    full = np.zeros((stacked.shape[0], *shape), stacked.dtype)
    full[:, i, j] = stacked[(slice(None), *idx)]
    return full


def _stored_entries(p: Problem, op: Operand, stacked: np.ndarray, full: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The entries a band or packed operand stores: of its stacked storage and of a full matrix."""
    if op.unpack is None:
        return stacked, full
    idx, i, j, _ = op.unpack(p)
    return stacked[(slice(None), *idx)], full[:, i, j]


def _initial_data(p: Problem, case: int = 0) -> dict[str, np.ndarray]:
    """The initial flat host buffers (storage types) of the operands that own memory, set up by
    the family's ``init`` for check ``case`` (0: the timed data)."""
    rng = np.random.default_rng(SEED)
    host: dict[str, np.ndarray] = {}
    for op in p.family.operands:
        g = p.geometry[op.key]
        if g.buffer != op.key:
            continue
        prec = p.operand_precision(op.key)
        flat = _to_storage(_random(rng, p.args.initialization, g.size, prec, op.io != "in"), prec)
        if op.kind != "general" and g.count > 0:
            entries = _to_reference(_stack(flat, g), prec)
            conditioned = _condition(_unpacked(p, op, entries), op.kind)
            if op.unpack is None:
                entries = conditioned
            else:  # back into the band or packed positions; the rest of the storage is never read
                idx, i, j, _ = op.unpack(p)
                entries[(slice(None), *idx)] = conditioned[:, i, j]
            _scatter(flat, g, _to_storage(entries, prec))
        host[op.key] = flat
    if p.family.init is not None:
        owners = [op for op in p.family.operands if p.geometry[op.key].buffer == op.key]
        entries = {op.key: _to_reference(_stack(host[op.key], p.geometry[op.key]), p.operand_precision(op.key))
                   for op in owners}
        p.family.init(p, entries, case)
        for op in owners:
            _scatter(host[op.key], p.geometry[op.key], _to_storage(entries[op.key], p.operand_precision(op.key)))
    return host


def _scalars(p: Problem, rng: np.random.Generator) -> dict[str, Any]:
    """The scalar arguments as host values of their storage type (what rocblas-bench's
    get_alpha<T> passes; rot's c and s drawn as rocblas-bench does)."""
    a = p.args
    out: dict[str, Any] = {}
    for name in p.family.scalars:
        sp = p.scalar_precision(name)
        if name in ("alpha", "beta"):
            re, im = (a.alpha, a.alphai) if name == "alpha" else (a.beta, a.betai)
            value: Any = complex(re, im) if sp.is_complex else re
            if sp.dtype.kind in "iu":
                value = int(re)
        else:
            value = _random(rng, a.initialization, 1, sp, False)[0]
            value = complex(value) if sp.is_complex else float(value.real)
        out[name] = value if sp.letter == "bf" else _to_storage(np.array([value]), sp)[0]
    return out


# --- running ------------------------------------------------------------------------------------


class _Session:
    """The handle, stream, device buffers and call arguments of one problem."""

    def __init__(self, p: Problem):
        import rocmath as rm
        import rocmath.blas as blas

        self.p = p
        self.blas = blas
        self.fn = getattr(blas, f"{p.fname}_64" if p.args.api == 1 else p.fname)
        self.params = [n for n in inspect.signature(self.fn).parameters]
        self.stream = rm.Stream()
        self.handle = blas.create_handle()
        blas.set_stream(self.handle, self.stream)
        blas.set_atomics_mode(self.handle, 0 if p.args.atomics_not_allowed else 1)
        blas.set_math_mode(self.handle, p.args.math_mode)
        if p.args.workspace > 0:
            blas.set_device_memory_size(self.handle, p.args.workspace)
        self.host = _initial_data(p)
        self.scalars = _scalars(p, np.random.default_rng(SEED + 1))
        self.dev = {key: rm.to_device(flat, self.stream) for key, flat in self.host.items()}
        self.pointers: dict[str, Any] = {}
        self.host_keys = {op.key for op in p.family.operands if op.host}
        for key, g in p.geometry.items():
            buf = self.dev[g.buffer]
            if g.buffer != key:  # in place: the very pointer (array) of the operand it overwrites
                self.pointers[key] = self.pointers[g.buffer]
            elif p.flavour == "_batched":
                addresses = (buf.ptr + g.offsets() * buf.itemsize).astype(np.uint64)
                self.pointers[key] = rm.to_device(addresses if len(addresses) else np.zeros(1, np.uint64),
                                                  self.stream)
            else:
                self.pointers[key] = buf
        self.device_scalars = {name: rm.to_device(_to_storage(np.array([v]), p.scalar_precision(name)),
                                                  self.stream) for name, v in self.scalars.items()}
        self.result_dtype = _result_dtype(p) if p.family.result is not None else None
        self.device_result = rm.empty(max(p.batch_count, 1), self.result_dtype) if self.result_dtype else None
        self.stream.synchronize()

    def arguments(self, device_mode: bool) -> list[Any]:
        """The call's arguments in parameter order."""
        from rocmath.blas._benchline import ENUM_FLAGS, stride_operand

        p, a = self.p, self.p.args
        enum_values = {"transA": p.trans_a, "trans": p.trans_a, "transB": p.trans_b, "side": p.side,
                       "uplo": p.uplo, "diag": p.diag}
        sizes = {"m": p.m, "n": p.n, "k": p.k, "kl": a.kl, "ku": a.ku}
        types = p.type_arguments()
        out: list[Any] = []
        for name in self.params:
            key = stride_operand(name)
            key = _PARAM_KEYS.get(key, key) if key is not None else None
            lower = _PARAM_KEYS.get(name.lower(), name.lower())
            if name == "handle":
                value: Any = self.handle
            elif name in ENUM_FLAGS:
                value = enum_values[name]
            elif name in sizes:
                value = sizes[name]
            elif name in p.ld:
                value = p.ld[name]
            elif name == "batch_count":
                value = p.batch_count
            elif name in self.scalars:
                value = self.device_scalars[name] if device_mode else self.scalars[name]
            elif key is not None:  # a stride (0 for an operand not passed, trsm_ex's invA)
                value = p.geometry[key].stride if key in p.geometry else 0
            elif lower in self.pointers:
                value = self.pointers[lower] if device_mode or lower not in self.host_keys else self.host_value(lower)
            elif name in ("result", "results"):
                value = self.device_result if device_mode else None
            elif name in types:
                value = types[name]
            elif name in ("algo", "solution_index", "flags", "geam_ex_op"):
                value = getattr(a, name)
            elif name in ("invA", "invA_size"):
                value = None if name == "invA" else 0  # trsm_ex: no precomputed inverse
            else:
                raise RuntimeError(f"rocmath-bench blas cannot fill argument {name!r} of {p.fname}")
            out.append(value)
        return out

    def host_value(self, key: str) -> Any:
        """A ``host`` operand as host pointer mode takes it: the plain form's number (or array),
        ``_batched``'s entries one after the other, ``_strided_batched``'s strided storage."""
        g, flat = self.p.geometry[key], self.host[key]
        if self.p.flavour == "_strided_batched":
            return flat.copy()
        entries = _stack(flat, g).reshape(-1)
        return entries[0] if not self.p.flavour and entries.size == 1 else entries

    def set_pointer_mode(self, device_mode: bool) -> None:
        self.blas.set_pointer_mode(self.handle, 1 if device_mode else 0)

    def reset(self) -> None:
        for key, flat in self.host.items():
            self.dev[key].set(flat, self.stream)

    def run_once(self, device_mode: bool) -> tuple[dict[str, np.ndarray], np.ndarray | None]:
        """One call on fresh data: the flat output buffers and the result(s) of a reduction."""
        self.reset()
        self.set_pointer_mode(device_mode)
        value = self.fn(*self.arguments(device_mode))
        self.stream.synchronize()
        outputs = {key: self.dev[key].get(self.stream) for key in self.host}
        if not device_mode and self.p.family.returns and value is not None:  # None: no entries
            # host values in, the new ones returned (rotg, rotmg): into a copy of their storage
            for key, new in zip(self.p.family.returns, value, strict=True):
                g = self.p.geometry[key]
                prec = self.p.operand_precision(key)
                outputs[key] = self.host[key].copy()
                _scatter(outputs[key], g, _to_storage(np.asarray(new).reshape(g.count, -1), prec))
        result = None
        if self.result_dtype is not None:
            if device_mode:
                result = self.device_result.get(self.stream)[: max(self.p.batch_count, 0)]
                r = _result_type(self.p)
                result = result if isinstance(r, np.dtype) else _to_reference(result, r)  # bfloat16 bits
            else:  # host mode returns values (bfloat16 ones as float32)
                result = np.atleast_1d(np.asarray(value))
        return outputs, result

    def close(self) -> None:
        self.stream.synchronize()
        self.blas.destroy_handle(self.handle)
        self.stream.destroy()


def _reference_inputs(p: Problem, host: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The operands stacked by entry, in the type the reference computes in."""
    ops = {}
    for op in p.family.operands:
        g = p.geometry[op.key]
        prec = p.operand_precision(op.key)
        # Band and packed operands reach the reference unpacked (outside its timing: NumPy has no
        # band or packed routines).
        ops[op.key] = _unpacked(p, op, _to_reference(_stack(host[g.buffer], g), prec))
    return ops


def _reference_scalars(p: Problem, scalars: Mapping[str, Any]) -> dict[str, Any]:
    """The scalars rounded to their storage type first, as the call rounds them."""
    out = {}
    for name, v in scalars.items():
        sp = p.scalar_precision(name)
        out[name] = _to_reference(_to_storage(np.array([v]), sp), sp)[0]
    return out


def _result_type(p: Problem) -> Any:
    """A reduction's result: the precision of a value (its type flag's for dot_ex, nrm2_ex), the
    dtype of amax/amin's index."""
    assert p.family.result is not None
    r = p.family.result(p.precision)
    if not isinstance(r, np.dtype) and p.family.ex_roles and "result" in p.family.ex_roles:
        return p.operand_precision("result")
    return r


def _result_dtype(p: Problem) -> np.dtype[Any]:
    """The dtype of a reduction's result (amax/amin's index: int64_t under ``--api 1``)."""
    r = _result_type(p)
    dt = r if isinstance(r, np.dtype) else r.dtype
    return np.dtype(np.int64) if dt.kind == "i" and p.args.api == 1 else dt


def _relative_error(expected: np.ndarray, got: np.ndarray) -> float:
    """rocBLAS's norm check: ||expected - got||_F / ||expected||_F per entry, the largest."""
    if expected.size == 0:
        return 0.0
    e = expected.reshape(expected.shape[0], -1).astype(np.complex128)
    g = got.reshape(got.shape[0], -1).astype(np.complex128)
    diff = np.linalg.norm(e - g, axis=1)
    scale = np.linalg.norm(e, axis=1)
    return float(np.max(np.where(scale > 0, diff / np.where(scale > 0, scale, 1), diff)))


def _errors(p: Problem, expected: Mapping[str, Any], outputs: Mapping[str, np.ndarray],
            result: np.ndarray | None) -> dict[str, float]:
    """Error of each output (by operand key, or ``"result"``)."""
    errs = {}
    operands = {op.key: op for op in p.family.operands}
    for key, value in expected.items():
        if key == "result":
            assert result is not None
            if _result_dtype(p).kind == "i":
                errs[key] = float(np.max(np.abs(result.astype(np.int64) - value), initial=0))  # index difference
            else:
                errs[key] = _relative_error(np.asarray(value)[:, None], np.asarray(result)[:, None])
            continue
        g = p.geometry[key]
        prec = p.operand_precision(key)
        got, want = _stored_entries(p, operands[key], _to_reference(_stack(outputs[g.buffer], g), prec),
                                    np.asarray(value))
        errs[key] = _relative_error(want, got)
    return errs


def _verify(p: Problem, s: _Session) -> tuple[list[float], float, bool]:
    """Run in host and device pointer mode on the same data (device mode alone where rocBLAS has
    no host mode), for each of the family's data cases; (norm errors as rocblas-bench lists them,
    summed over the cases, the reference's time in us, whether all are within tolerance)."""
    fam = p.family
    with_host = fam.host_mode(p)
    total: list[float] = []
    # rocblas-bench checks only the first case of the _64 functions
    cases = fam.cases if p.args.api == 0 else 1
    for case in range(cases):
        if case:  # the session holds case 0's data
            s.host = _initial_data(p, case)
        ops = _reference_inputs(p, s.host)
        sc = _reference_scalars(p, s.scalars)
        t0 = time.perf_counter_ns()
        expected = fam.reference(p, ops, sc)
        cpu_us = (time.perf_counter_ns() - t0) / 1e3
        host = _errors(p, expected, *s.run_once(False)) if with_host else {}
        device = _errors(p, expected, *s.run_once(True)) if fam.norms != "host" or not with_host else host
        columns = _norm_columns(fam.norms, host, device, with_host)
        total = [t + c for t, c in zip(total, columns, strict=True)] if total else columns
    if cases > 1:
        s.host = _initial_data(p)  # back to the timed data
    out_prec = [p.operand_precision(k) for k in expected if k != "result"] or [p.precision]
    eps = max(q.eps for q in out_prec)
    tol = 64 * eps * max(1, fam.depth(p))
    return total, cpu_us, all(e <= tol for e in total)


def _norm_columns(norms: str, host: Mapping[str, float], device: Mapping[str, float], with_host: bool) -> list[float]:
    """The norm error columns rocblas-bench prints (device mode's alone without host mode)."""
    if norms == "xy":
        return [host["x"], device["x"], host["y"], device["y"]] if with_host else [device["x"], device["y"]]
    if norms in ("pair", "sum"):
        total = max if norms == "pair" else sum
        return [total(host.values()), total(device.values())] if with_host else [total(device.values())]
    return [max(*host.values(), *device.values())]


# --- output --------------------------------------------------------------------------------------


def _columns(p: Problem) -> list[str]:
    fam = p.family
    cols = fam.columns.split(",")
    if p.flavour != "_strided_batched":
        cols = [c for c in cols if not c.startswith("stride_")]
    if not p.flavour:
        cols = fam.plain_columns.split(",") if fam.plain_columns else [c for c in cols if c != "batch_count"]
    return cols


def _column_value(p: Problem, name: str) -> str:
    a = p.args
    if name in ("alpha", "beta"):
        re, im = (a.alpha, a.alphai) if name == "alpha" else (a.beta, a.betai)
        return f"({fmt_g(re)}: {fmt_g(im)})" if p.complex else fmt_g(re)
    if name.startswith("stride_"):
        letter = name[len("stride_"):]
        return str(p.geometry[next(op.key for op in p.family.operands if op.bench == letter)].stride)
    table = {"M": p.m, "N": p.n, "K": p.k, "KL": a.kl, "KU": a.ku, "transA": p.trans_a, "transB": p.trans_b,
             "side": p.side, "uplo": p.uplo, "diag": p.diag, "batch_count": p.batch_count, "algo": a.algo,
             "outofplace": int(a.outofplace),
             # rocblas-bench prints its lda argument even where the function has none (spmv)
             **{ld: DEFAULT_LD if getattr(a, ld) is None else getattr(a, ld) for ld in ("lda", "ldb", "ldc", "ldd")},
             **p.ld}
    return str(table[name])


def _report(p: Problem, timed: Rounds, verify: tuple[list[float], float, bool] | None, out: TextIO) -> None:
    a, fam = p.args, p.family
    if fam.bare_plain and not p.flavour:
        _report_bare(p, timed, verify, out)
        return
    names: list[str] = []
    values: list[str] = []
    if a.log_function_name:
        names.append("function")
        values.append(p.function)
    if a.log_datatype:
        names += list(_TYPE_ROLES)
        values += [p.types[r] for r in _TYPE_ROLES]
    for col in _columns(p):
        names.append(col)
        values.append(_column_value(p, col))
    head, line = ",".join(names), ",".join(values)
    count = p.batch_count if p.flavour else 1
    us = timed.mean_ns / 1e3
    perf = [("cold_iters", str(a.cold_iters)), ("hot_iters", str(a.iters))]
    if fam.flops is not None:
        perf.append(("rocblas-Gflops", fmt_g(fam.flops(p) * count / us * 1e6)))
    if fam.gbytes is not None:
        perf.append(("rocblas-GB/s", fmt_g(fam.gbytes(p) * count / us * 1e6)))
    perf.append(("us", fmt_g(us)))
    for n, v in perf:  # rocblas-bench separates these values with ", "
        head += f",{n}"
        line += f", {v}"
    if verify is not None:
        norms, cpu_us, _ = verify
        if fam.flops is not None:
            head += ",CPU-Gflops"
            line += f",{fmt_g(fam.flops(p) * count / cpu_us * 1e6)}"
        head += ",CPU-us"
        line += f",{fmt_g(cpu_us)}"
        if a.verify:
            for i, e in enumerate(norms, 1):
                head += f",norm_error_{i}"
                line += f",{fmt_g(e)}"
    head += ",ref-us,ratio,ratio-lo,ratio-hi"
    line += (f",{fmt_g(timed.reference_mean_ns / 1e3)},{fmt_g(timed.ratio)},{fmt_g(timed.interval[0])},"
             f"{fmt_g(timed.interval[1])}")
    out.write(f"{head}\n{line}\n")


def _report_bare(p: Problem, timed: Rounds, verify: tuple[list[float], float, bool] | None, out: TextIO) -> None:
    """The plain rotg's and rotmg's line: ``rocblas-us,CPU-us`` and the host and device norm
    errors, no argument columns (testing_rotg.hpp, testing_rotmg.hpp), then rocmath's columns."""
    cpu_us = verify[1] if verify is not None else timed.reference_mean_ns / 1e3
    names, values = ["rocblas-us", "CPU-us"], [fmt_g(timed.mean_ns / 1e3), fmt_g(cpu_us)]
    if verify is not None and p.args.verify:
        names += ["norm_error_host_ptr", "norm_error_dev_ptr"]
        values += [fmt_g(e) for e in verify[0]]
    names += ["ref-us", "ratio", "ratio-lo", "ratio-hi"]
    values += [fmt_g(timed.reference_mean_ns / 1e3), fmt_g(timed.ratio), fmt_g(timed.interval[0]),
               fmt_g(timed.interval[1])]
    out.write(f"{','.join(names)}\n{','.join(values)}\n")


def run(p: Problem, out: TextIO) -> int:
    """Time (and with ``-v``/``-t`` check) one problem and print rocblas-bench's report.

    Parameters
    ----------
    p
        The problem, from :func:`resolve`.
    out
        Where the report goes: the device line, rocblas-bench's INFO lines, the CSV.

    Returns
    -------
    int
        0, or 1 when a checked error is above tolerance.
    """
    a = p.args
    out.write(device_line() + "\n")
    for msg in p.info:
        out.write(f"rocmath-bench blas INFO: {msg}\n")
    session = _Session(p)
    try:
        verify = _verify(p, session) if (a.verify or a.test) else None
        session.reset()
        device_mode = p.family.device_timed(p) if a.pointer_mode is None else a.pointer_mode in ("device", "1")
        session.set_pointer_mode(device_mode)
        args = session.arguments(device_mode)
        ops = _reference_inputs(p, session.host)
        sc = _reference_scalars(p, session.scalars)
        timed = time_rounds(lambda: session.fn(*args), session.stream.synchronize,
                            lambda: p.family.reference(p, ops, sc), a.cold_iters, a.iters)
    finally:
        session.close()
    if a.iters >= 1:  # rocblas-bench prints no CSV for warm-up only runs
        _report(p, timed, verify, out)
    if verify is not None and not verify[2]:
        sys.stderr.write(f"rocmath-bench blas: {p.fname}: error above tolerance: "
                         f"{', '.join(fmt_g(e) for e in verify[0])}\n")
        return 1
    return 0


def main(argv: Sequence[str], out: TextIO | None = None) -> int:
    """``rocmath-bench blas``: the exit status.

    Parameters
    ----------
    argv
        The arguments after ``blas``.
    out
        Where the report goes (stdout when None).
    """
    from rocmath.errors import (
        RocblasInvalidPointerError,
        RocblasInvalidSizeError,
        RocblasInvalidValueError,
        RocblasNotImplementedError,
        RocmathError,
    )

    prog = "rocmath-bench blas"
    out = out or sys.stdout
    try:
        if not argv:
            return print_help(_parser(), out)
        args = parse_args(argv)
        if args.help:
            return print_help(_parser(), out)
        if args.version:
            import rocmath.blas as blas

            out.write(f"rocBLAS version: {blas.get_version_string()}\n")
            return 0
        if "--batch" in argv:
            sys.stderr.write(f"{prog} warning: --batch is deprecated, use --batch_count\n")
        select_device(args.device, "Invalid Device ID")
        p = resolve(args)
    except UsageError as e:
        return usage_failure(prog, e)
    try:
        return run(p, out)
    except (RocblasInvalidSizeError, RocblasInvalidValueError, RocblasInvalidPointerError,
            RocblasNotImplementedError) as e:
        return usage_failure(prog, f"rocblas_{p.fname}: {e}")
    except RocmathError as e:
        sys.stderr.write(f"{prog}: rocblas_{p.fname} failed: {e}\n")
        return 1
