"""``ROCBLAS_LAYER=2`` bench lines: every call written as a ``rocmath-bench blas`` command that replays it.

A line names the function as rocblas-bench does (``-f gemm_strided_batched``, ``-f iamax``
for ``isamax``, ``-f dot`` for ``cdotu``), its types (``-r f32_r``; ``--a_type``/``--b_type``
for scal and rot, whose mixed forms ``csscal``/``csrot`` differ only in them, and for rotg
(``crotg``: ``--a_type f32_c --b_type f32_r``); the datatype arguments of the ``_ex``
functions), then the call's non-pointer arguments in C-prototype order under rocblas-bench's
flag names: transposes, sizes, alpha and beta, leading dimensions, increments, strides
(a packed ``AP``'s is ``--stride_a``; rotg's and rotmg's as rocBLAS names them),
``batch_count``; ``--outofplace`` when gemm_ex or gemm_ex3 writes D
apart from C or trmm C apart from B.  ``--atomics_not_allowed`` ends the line when the
handle disallows atomics.  Arrays, results and rot's ``c``/``s`` have no
flag (rocblas-bench makes its own data), as in rocBLAS's lines.

Scalars are printed as rocBLAS prints them (``1``, ``0``; ``--alphai`` for a nonzero
imaginary part; ``nan`` for a null pointer; device pointer mode reads the value back
after the handle's stream has drained), except that non-integral values use the
shortest text that reads back to the same value in its type (not six digits), so a
replay passes the same alpha.

The name mapping goes both ways: :func:`bench_name` gives rocblas-bench's function and
type flags of a rocmath name, :func:`functions_for` the rocmath names behind a
rocblas-bench function (``rocmath-bench blas`` resolves ``-f``/``-r`` with it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from typing import Any

import numpy as np

from rocmath.errors import RocmathError
from rocmath.handle import AtomicsMode, PointerMode
from rocmath.log import ostream_text
from rocmath.precision import BF16, C, D, H, Precision, S, Z, from_bfloat16

from ._manifest import EXTENSIONS, GEMV_MIXED, LEVEL1, LEVEL2, LEVEL3, compute_routines
from ._types import ComputeType, Datatype, Diagonal, Fill, Operation, Side, as_enum

__all__ = [
    "BENCH_COMMAND", "ENUM_FLAGS", "EX3_TYPE_FLAGS", "EX_SUFFIXES", "EX_TYPE_FLAGS", "VALUE_FLAGS", "bench_line",
    "bench_name", "ex_type_flags", "functions_for", "parse_name", "pointer_text", "scalar_precision",
    "stride_operand", "trace_fields",
]

#: The command every bench line starts with.
BENCH_COMMAND = "rocmath-bench blas"

#: Enum parameters -> (rocblas-bench flag, enum class).
ENUM_FLAGS: dict[str, tuple[str, Any]] = {
    "transA": ("--transposeA", Operation), "trans": ("--transposeA", Operation),
    "transB": ("--transposeB", Operation), "side": ("--side", Side), "uplo": ("--uplo", Fill),
    "diag": ("--diag", Diagonal),
}

#: Integer parameters printed as they are -> rocblas-bench flag.
VALUE_FLAGS: dict[str, str] = {
    "m": "-m", "n": "-n", "k": "-k", "kl": "--kl", "ku": "--ku", "lda": "--lda", "ldb": "--ldb", "ldc": "--ldc",
    "ldd": "--ldd", "incx": "--incx", "incy": "--incy", "batch_count": "--batch_count", "algo": "--algo",
    "solution_index": "--solution_index", "flags": "--flags", "geam_ex_op": "--geam_ex_op",
}

#: The datatype parameters of each ``_ex`` operation -> the rocblas-bench type flag carrying them
#: (rocBLAS's own lines; ``"r"`` is ``-r``).
EX_TYPE_FLAGS: dict[str, dict[str, str]] = {
    "gemm": {"a_type": "a_type", "b_type": "b_type", "c_type": "c_type", "d_type": "d_type",
             "compute_type": "compute_type"},
    "geam": {"a_type": "a_type", "b_type": "b_type", "c_type": "c_type", "d_type": "d_type",
             "compute_type": "compute_type"},
    "axpy": {"alpha_type": "a_type", "x_type": "b_type", "y_type": "c_type", "execution_type": "compute_type"},
    "dot": {"x_type": "a_type", "y_type": "b_type", "result_type": "c_type", "execution_type": "compute_type"},
    "dotc": {"x_type": "a_type", "y_type": "b_type", "result_type": "c_type", "execution_type": "compute_type"},
    "nrm2": {"x_type": "a_type", "result_type": "b_type", "execution_type": "compute_type"},
    "scal": {"alpha_type": "a_type", "x_type": "b_type", "execution_type": "compute_type"},
    "rot": {"x_type": "a_type", "y_type": "b_type", "cs_type": "c_type", "execution_type": "compute_type"},
    "trsm": {"compute_type": "r"},
}
#: The same for gemm_ex3 (rocBLAS's beta API): its compute type is a rocblas_computetype.
EX3_TYPE_FLAGS: dict[str, dict[str, str]] = {
    "gemm": {**EX_TYPE_FLAGS["gemm"], "compute_type": "composite_compute_type"},
}
#: The suffixes of the _ex functions' names: the beta API's gemm_ex3 first (``_ex`` ends it too).
EX_SUFFIXES = ("_ex3", "_ex")
#: _ex operations whose three types collapse to ``-r`` when equal (rocBLAS's log_bench_ex_precisions).
_EX_COLLAPSE = frozenset({"nrm2", "scal"})

#: rocmath operation -> rocblas-bench function (the others keep their name).
_BENCH_OP = {"amax": "iamax", "amin": "iamin", "dotu": "dot"}

#: Mixed-precision prefixes -> the precision of the input vector (what ``-r`` names).
_PREFIX_PRECISION: dict[str, Precision] = {
    "s": S, "d": D, "c": C, "z": Z, "h": H, "bf": BF16, "sc": C, "dz": Z, "cs": C, "zd": Z,
    "is": S, "id": D, "ic": C, "iz": Z, "hsh": H, "hss": H, "tst": BF16, "tss": BF16,
}

#: Mixed gemv prefixes -> (a_type, c_type, compute_type) of its rocBLAS bench line.
_GEMV_MIXED_TYPES = {"hsh": ("f16_r", "f16_r", "f32_r"), "hss": ("f16_r", "f32_r", "f32_r"),
                     "tst": ("bf16_r", "bf16_r", "f32_r"), "tss": ("bf16_r", "f32_r", "f32_r")}

_FLAVOURS = ("_strided_batched", "_batched")

#: Stride operands whose rocblas-bench flag is not their own letter: packed AP is ``--stride_a``;
#: rotg's s is ``--stride_d``; rotmg's d1, d2, param, x1, y1 are a, b, c, x, y (rocBLAS's lines).
_STRIDE_KEYS: dict[str, dict[str, str]] = {
    "rotg": {"a": "a", "b": "b", "c": "c", "s": "d"},
    "rotmg": {"d1": "a", "d2": "b", "param": "c", "x1": "x", "y1": "y"},
}
_DEFAULT_STRIDE_KEYS = {**{k: k for k in "abcdxy"}, "ap": "a"}
#: Operations whose line lists the parameters in another order than the C prototype (rocBLAS's).
_LINE_ORDER: dict[str, tuple[str, ...]] = {
    "rotmg": ("batch_count", "stride_d1", "stride_d2", "stride_param", "stride_x1", "stride_y1"),
}


@cache
def _ops() -> dict[str, frozenset[str]]:
    """Operation -> its name prefixes, from the manifest (longest operation names first)."""
    table: dict[str, set[str]] = {}
    for group in (LEVEL1, LEVEL2, LEVEL3, EXTENSIONS):
        for op, prefixes in group.items():
            table.setdefault(op, set()).update(prefixes.split())
    for name in GEMV_MIXED:
        table["gemv"].add(name[: -len("gemv")])
    return {op: frozenset(table[op]) for op in sorted(table, key=len, reverse=True)}


def parse_name(fname: str) -> tuple[str, str, str, str]:
    """Split a rocmath.blas function name into ``(prefix, operation, flavour, ex)``.

    ``"cgemm_strided_batched"`` -> ``("c", "gemm", "_strided_batched", "")``;
    ``"gemm_batched_ex"`` -> ``("", "gemm", "_batched", "_ex")``; ``"gemm_ex3"`` ->
    ``("", "gemm", "", "_ex3")`` (``ex`` is empty, hence false, for the typed routines).

    Raises
    ------
    ValueError
        If ``fname`` is not a rocBLAS compute routine.
    """
    ex = next((e for e in EX_SUFFIXES if fname.endswith(e)), "")
    core = fname[: len(fname) - len(ex)]
    flavour = next((f for f in _FLAVOURS if core.endswith(f)), "")
    core = core[: len(core) - len(flavour)]
    if ex:
        if core in ex_type_flags(ex):
            return "", core, flavour, ex
        raise ValueError(f"not a rocBLAS {ex} function: {fname!r}")
    for op, prefixes in _ops().items():
        if core.endswith(op) and core[: len(core) - len(op)] in prefixes:
            return core[: len(core) - len(op)], op, flavour, ""
    raise ValueError(f"not a rocBLAS compute routine: {fname!r}")


def ex_type_flags(ex: str) -> dict[str, dict[str, str]]:
    """The type flags of the ``_ex`` (``ex="_ex"``) or beta ``_ex3`` operations."""
    return EX3_TYPE_FLAGS if ex == "_ex3" else EX_TYPE_FLAGS


def _datatype_name(value: Any, cls: Any = Datatype) -> str:
    try:
        return str(as_enum(cls, value, "datatype"))
    except Exception:  # an invalid value is logged as given (the call reports it)
        return str(value)


def _type_name(ex: str, param: str, value: Any) -> str:
    """A datatype argument by name; gemm_ex3's compute type as rocBLAS prints a
    rocblas_computetype (``f8_f8_f32``; ``invalid`` for a value it does not have)."""
    if ex == "_ex3" and param == "compute_type":
        name = _datatype_name(value, ComputeType)
        return name if name in ComputeType.__members__ else "invalid"
    return _datatype_name(value)


def bench_name(fname: str, values: Mapping[str, Any] | None = None) -> tuple[str, dict[str, str]]:
    """rocblas-bench's function name and type flags for a rocmath.blas function.

    Parameters
    ----------
    fname
        The rocmath name (``"csscal_batched"``).
    values
        The call's arguments by parameter name; the ``_ex`` functions take their types from
        them (without, their type flags are empty).

    Returns
    -------
    (function, types)
        ``("scal_batched", {"a_type": "f32_c", "b_type": "f32_r"})``; the key ``"r"`` is ``-r``.
    """
    prefix, op, flavour, ex = parse_name(fname)
    if ex:
        roles = ex_type_flags(ex)[op]
        types = {flag: _type_name(ex, param, values[param]) for param, flag in roles.items()} if values else {}
        if op in _EX_COLLAPSE and len(set(types.values())) == 1:
            types = {"r": next(iter(types.values()))}
        return f"{op}{flavour}{ex}", types
    p = _PREFIX_PRECISION[prefix]
    function = f"{_BENCH_OP.get(op, op)}{flavour}"
    if prefix in _GEMV_MIXED_TYPES:
        return function, dict(zip(("a_type", "c_type", "compute_type"), _GEMV_MIXED_TYPES[prefix], strict=True))
    if op == "scal":  # x's type, then alpha's
        return function, {"a_type": p.datatype, "b_type": (p.real if prefix in ("cs", "zd") else p).datatype}
    if op == "rot":  # x's type, c's, s's
        s = p.real if prefix in ("cs", "zd") else p
        return function, {"a_type": p.datatype, "b_type": p.real.datatype, "c_type": s.datatype}
    if op == "rotg":  # a's type, c's (rocblas_rotg_imp.hpp; -r f32_c would make rocblas-bench's c complex)
        return function, {"a_type": p.datatype, "b_type": p.real.datatype}
    return function, {"r": p.datatype}


@cache
def _index() -> dict[str, dict[str, dict[str, str]]]:
    """rocblas-bench function -> {rocmath name: its type flags}, for the non-_ex routines."""
    out: dict[str, dict[str, dict[str, str]]] = {}
    for fname in sorted(compute_routines()):
        if fname.endswith(("_ex", "_ex3", "_64")):  # _ex, _ex3: resolved by their types; _64: by --api 1
            continue
        function, types = bench_name(fname)
        out.setdefault(function, {})[fname] = types
    return out


def functions_for(function: str) -> dict[str, dict[str, str]]:
    """The rocmath names behind a rocblas-bench function (not ``_ex``), with their type flags.

    ``functions_for("scal")`` -> ``{"sscal": {"a_type": "f32_r", "b_type": "f32_r"}, "csscal": ...}``;
    empty for unknown functions.
    """
    return dict(_index().get(function, {}))


def stride_operand(param: str) -> str | None:
    """The operand a stride parameter belongs to, lower-cased (``stride_A``, ``stridex`` ->
    ``"a"``, ``"x"``); None for other parameters."""
    if not param.startswith("stride"):
        return None
    return param[len("stride"):].lstrip("_").lower() or None


def scalar_precision(fname: str, param: str, values: Mapping[str, Any] | None = None) -> Precision | None:
    """The precision a scalar argument (alpha, beta, rot's c and s) is stored in.

    Real for the Hermitian updates' real scalars (herk's alpha and beta, her2k's and herkx's
    beta, her's and hpr's alpha), ``csscal``'s alpha and rot's ``c`` (and ``s`` of
    ``csrot``); float32 for the mixed gemv; the compute (or alpha) type of the ``_ex``
    functions (needs ``values``); the routine's precision otherwise.  None if unknown.
    """
    try:
        prefix, op, _, ex = parse_name(fname)
    except ValueError:
        return None
    if ex == "_ex3":
        return S  # alpha and beta are floats in every compute type
    if ex:
        if values is None:
            return None
        source = {"gemm": "compute_type", "geam": "compute_type", "axpy": "alpha_type", "scal": "alpha_type",
                  "rot": "cs_type", "trsm": "compute_type"}.get(op)
        if source is None or source not in values:
            return None
        try:
            p = Precision.from_datatype(_datatype_name(values[source]))
        except ValueError:
            return None
        return p.real if op == "rot" and param == "c" else p
    p = _PREFIX_PRECISION[prefix]
    if prefix in _GEMV_MIXED_TYPES:
        return S
    real = ((op == "herk") or (op in ("her2k", "herkx") and param == "beta") or op in ("her", "hpr")
            or (op == "scal" and prefix in ("cs", "zd")) or (op == "rot" and (param == "c" or prefix in ("cs", "zd"))))
    return p.real if real else p


def _real_text(x: Any) -> str:
    """A real as rocBLAS prints it (integral values without a point), else the shortest text
    that reads back to the same value in its own type (a float32 0.1 is ``0.1``)."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == int(x) and abs(x) < 2**53:
        return str(int(x))
    return str(x) if isinstance(x, np.floating) else repr(float(x))


def _scalar_value(handle: Any, fname: str, name: str, values: Mapping[str, Any]) -> Any:
    """The value of a scalar argument: as given in host mode, read back in device mode; NaN
    for a null pointer or anything unreadable."""
    value = values.get(name)
    if value is None:
        return math.nan
    if handle.pointer_mode is PointerMode.device:
        return _read_device_scalar(handle, value, scalar_precision(fname, name, values))
    if isinstance(value, np.ndarray):
        value = value.reshape(-1)[0] if value.size else math.nan
    if isinstance(value, (np.floating, np.complexfloating)):
        return value  # printed in its own precision
    try:
        return complex(value) if np.iscomplexobj(value) else float(value)
    except (TypeError, ValueError):
        return math.nan


def _read_device_scalar(handle: Any, value: Any, p: Precision | None) -> Any:
    import rocmath
    from rocmath.launch import Buffer, launch

    if p is None:
        return math.nan
    ptr = value.ptr if isinstance(value, rocmath.DeviceArray) else value
    if isinstance(ptr, bool) or not isinstance(ptr, (int, np.integer)) or int(ptr) == 0:
        return math.nan
    out = np.empty(1, dtype=p.dtype)
    try:
        task = launch(_copy_scalar, out, Buffer(int(ptr), p.dtype, (1,), name="bench log scalar"),
                      name="bench log scalar read", stream=handle.stream)
    except RocmathError:  # a bad pointer is the call's to report, not the logger's
        return math.nan
    task.wait()  # after the work already on the stream, as rocBLAS's copy and synchronize
    return from_bfloat16(out)[0] if p is BF16 else out[0]


def _copy_scalar(dst: np.ndarray, src: np.ndarray) -> None:
    dst[...] = src


def _scalar_tokens(name: str, value: Any) -> list[str]:
    if np.iscomplexobj(value):
        tokens = [f"--{name}", _real_text(value.real)]
        if value.imag:
            tokens += [f"--{name}i", _real_text(value.imag)]
        return tokens
    return [f"--{name}", _real_text(value)]


def _int_text(value: Any) -> str:
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return str(int(value))
    return str(value)


def _enum_text(value: Any, cls: Any, name: str) -> str:
    try:
        return as_enum(cls, value, name).letter
    except Exception:  # invalid: logged as given, the call reports it
        return str(value)


def _out_of_place(values: Mapping[str, Any], ex: bool) -> bool:
    """gemm_ex(3) writing D apart from C, trmm writing C apart from B (rocblas-bench's --outofplace)."""
    out, into = ("d", "c") if ex else ("C", "B")
    return _address(values.get(out)) != _address(values.get(into))


def _address(value: Any) -> Any:
    return getattr(value, "ptr", value)


# --- trace lines (ROCBLAS_LAYER=1) ------------------------------------------------------------

#: rocblas_gemm_flags_to_string (utility.hpp): one flag by name, anything else "invalid".
_GEMM_FLAG_NAMES = {0x0: "none", 0x2: "use_cu_efficiency", 0x4: "fp16_alt_impl", 0x8: "check_solution_index",
                    0x10: "fp16_alt_impl_round", 0x20: "stochastic_rounding"}
#: Integer parameters of the routines besides those of VALUE_FLAGS and the strides.
_INT_PARAMS = frozenset({"invA_size", "ldinvA"})
#: _ex operations whose trace leaves alpha and beta out in device pointer mode (their *_imp.hpp trace
#: the scalars only in host mode; gemm_ex copies them to the host first and always has them).
_NO_DEVICE_SCALARS = frozenset({"axpy", "scal", "geam"})
#: Operations that copy device alpha and beta to the host before they log, alpha only when the product
#: is not empty (rocblas_copy_alpha_beta_to_host_if_on_device: k == 0, trmm's m or n 0: alpha is 0).
_ALPHA_ZERO_IF_EMPTY = frozenset({"gemm", "syr2k", "her2k", "syrkx", "herkx", "trmm"})


def pointer_text(value: Any) -> str:
    """A pointer argument as ``std::ostream`` prints a pointer: ``0x...``, a null one ``0``.
    A host value given in place of a host pointer (rot's ``c`` and ``s``) prints as that value."""
    if value is None:
        return "0"
    if isinstance(value, np.ndarray):
        return f"0x{value.ctypes.data:x}" if value.size else "0"
    ptr = getattr(value, "ptr", value)
    if isinstance(ptr, (int, np.integer)) and not isinstance(ptr, (bool, np.bool_)):
        return f"0x{int(ptr):x}" if ptr else "0"
    if isinstance(ptr, (float, complex, np.number)):
        return ostream_text(ptr)
    return str(ptr)


def _empty_product(op: str, values: Mapping[str, Any]) -> bool:
    sizes = ("m", "n") if op == "trmm" else ("k",)
    return any(isinstance(values.get(v), (int, np.integer)) and int(values[v]) == 0 for v in sizes)


def trace_fields(handle: Any, fname: str, names: tuple[str, ...], values: Mapping[str, Any]) -> list[str]:
    """The argument fields of a call's trace line, as rocBLAS's ``log_trace`` prints them.

    Parameters
    ----------
    handle
        The call's handle (pointer mode, stream).
    fname
        The rocmath.blas function name (``"dgemm"``).
    names
        The C parameter names, handle first.
    values
        The arguments by name.

    Returns
    -------
    list of str
        Enums as letters (``T``), datatypes by name (``f64_r``), alpha and beta by value
        (``1``, ``(0.5,-0.25)``, read back in device pointer mode; ``nan`` for a null
        pointer), pointers as addresses, integers as they are; no result field (rocBLAS's
        reductions do not trace it).  The atomics mode that ends the line is not included.
    """
    _, op, _, ex = parse_name(fname)
    device = handle.pointer_mode is PointerMode.device
    out = []
    for name in names[1:]:
        value = values.get(name)
        if name in ("result", "results"):
            continue
        if name in ENUM_FLAGS:
            out.append(_enum_text(value, ENUM_FLAGS[name][1], name))
        elif name.endswith("_type"):
            out.append(_type_name(ex, name, value))
        elif name == "flags":
            out.append(_GEMM_FLAG_NAMES.get(int(value), "invalid") if isinstance(value, (int, np.integer))
                       else str(value))
        elif name in ("alpha", "beta"):
            if ex and device and op in _NO_DEVICE_SCALARS:
                continue
            if (device and name == "alpha" and value is not None and op in _ALPHA_ZERO_IF_EMPTY
                    and _empty_product(op, values)):
                out.append("0")
            else:
                out.append(ostream_text(_scalar_value(handle, fname, name, values)))
        elif name in VALUE_FLAGS or name in _INT_PARAMS or stride_operand(name) is not None:
            out.append(_int_text(0 if value is None else value))
        else:
            out.append(pointer_text(value))
    return out


def bench_line(handle: Any, fname: str, names: tuple[str, ...], values: Mapping[str, Any], *,
               ilp64: bool = False) -> str:
    """The ``rocmath-bench blas`` command replaying one call.

    Parameters
    ----------
    handle
        The call's handle (pointer mode, atomics mode, stream).
    fname
        The rocmath.blas function name (``"sgemm_strided_batched"``).
    names
        The C parameter names, handle first.
    values
        The arguments by name.
    ilp64
        A ``_64`` function's call: ``--api 1`` follows the command, as in rocBLAS's lines.

    Returns
    -------
    str
        E.g. ``rocmath-bench blas -f gemm -r f32_r --transposeA N --transposeB T -m 128 -n 128 -k 128
        --alpha 1 --lda 128 --ldb 128 --beta 0 --ldc 128``.
    """
    _, op, _, ex = parse_name(fname)
    function, types = bench_name(fname, values)
    tokens = [BENCH_COMMAND, *(("--api", "1") if ilp64 else ()), "-f", function]
    if "r" in types:
        tokens += ["-r", types["r"]]
    ex_types = ex_type_flags(ex)[op] if ex else {}
    stride_keys = _STRIDE_KEYS.get(op, _DEFAULT_STRIDE_KEYS)
    order = _LINE_ORDER.get(op)
    for name in (names[1:] if order is None else [n for n in order if n in names]):
        value = values.get(name)
        if name in ENUM_FLAGS:
            flag, cls = ENUM_FLAGS[name]
            tokens += [flag, _enum_text(value, cls, name)]
        elif name in VALUE_FLAGS:
            tokens += [VALUE_FLAGS[name], _int_text(value)]
        elif name in ("alpha", "beta"):
            tokens += _scalar_tokens(name, _scalar_value(handle, fname, name, values))
        elif name in ex_types and "r" not in types:
            tokens += [f"--{ex_types[name]}", types[ex_types[name]]]
        elif (key := stride_operand(name)) is not None and key in stride_keys:
            tokens += [f"--stride_{stride_keys[key]}", _int_text(value)]
    if not ex and "r" not in types:
        # scal, rot and the mixed gemv: their type flags follow the function, as rocBLAS writes them.
        at = tokens.index("-f") + 2
        tokens[at:at] = [t for flag, dt in types.items() for t in (f"--{flag}", dt)]
    # (rocBLAS's lines have no --outofplace: without it rocblas-bench's gemm_ex and gemm_ex3 run D in C)
    if (op, ex) in (("gemm", "_ex"), ("gemm", "_ex3"), ("trmm", "")) and _out_of_place(values, bool(ex)):
        tokens.append("--outofplace")
    if handle.atomics_mode is AtomicsMode.not_allowed:
        tokens.append("--atomics_not_allowed")
    return " ".join(tokens)
