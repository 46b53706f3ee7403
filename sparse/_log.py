"""rocSPARSE's logging layers: ``ROCSPARSE_LAYER`` (bit 1 trace, 2 bench, 4 profile), read per handle.

- trace: one line per call of a bound routine, ``rocsparse_<name>,handle,arg,arg...`` as rocSPARSE's
  ``log_trace`` writes them (device arrays, descriptors and the handle as hex addresses, enums by
  value, a null pointer as 0);
- bench: for the routines ``rocmath-bench sparse`` runs, a ``rocmath-bench sparse ...`` command with
  rocsparse-bench's flags (``-f csrmv -r d -m -n -z --alpha --beta --transposeA --indexbaseA`` ...)
  that replays the call's sizes, scalars, operations, fill, diagonal and index base on generated
  data (:func:`bench_command`): bsrmv / bsrsv with ``--blockdim``, ``--direction`` and ``-z`` the
  stored block entries (``nnzb * block_dim^2``), ellmv with ``-z m * ell_width``, hybmv as the user
  partition at its ELL width (``-z`` its ELL slots plus COO entries), csrsm with ``-k`` its
  right-hand sides, csrilu0 / csric0 with ``-m -z``; the generic spmv / spmm / spsv / spgemm log
  their compute stage (spgemm also its numeric stage) with the format, index types, spmv's and
  spmm's algorithm, spmm's dense orders and spsv's fill and diagonal; a call the bench cannot rebuild
  (a non-general csrmv, coomv, bsrmv, ellmv or hybmv, a mixed-precision generic call or one in a
  format the bench does not build for it, the routines the bench does not run) writes no bench line;
- profile: per distinct problem (its bench command, else the function with its non-pointer
  arguments), calls and the device time of the work they launched, written as YAML when the handle
  is destroyed (or at exit): :class:`rocmath.log.ProfileTable`.

Lines go to ``ROCSPARSE_LOG_TRACE_PATH`` / ``ROCSPARSE_LOG_BENCH_PATH`` /
``ROCSPARSE_LOG_PROFILE_PATH``, else stderr (:class:`rocmath.log.Logger`).  Scalars in device
pointer mode are not read back (that would synchronize): the bench command leaves them at
rocsparse-bench's defaults.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any

import numpy as np

from rocmath.handle import LayerMode, PointerMode
from rocmath.log import format_value, profiling

__all__ = ["BENCH_FUNCTIONS", "bench_command", "logged_call", "trace_value"]

#: Bound routine name (no precision letter) -> the ``rocmath-bench sparse -f`` function that replays it.
BENCH_FUNCTIONS = {
    "axpyi": "axpyi", "doti": "doti", "dotci": "dotci", "gthr": "gthr", "gthrz": "gthrz", "sctr": "sctr",
    "roti": "roti", "csrmv": "csrmv", "coomv": "coomv", "bsrmv": "bsrmv", "bsrmv_ex": "bsrmv", "ellmv": "ellmv",
    "hybmv": "hybmv", "csrmm": "csrmm", "csrsv_solve": "csrsv", "bsrsv_solve": "bsrsv", "csrsm_solve": "csrsm",
    "csrgemm": "csrgemm", "csrilu0": "csrilu0", "csric0": "csric0",
    "gtsv_no_pivot_strided_batch": "gtsv_no_pivot_strided_batch", "spmv": "spmv", "spmm": "spmm", "spsv": "spsv",
    "spgemm": "spgemm",
}
#: The generic routines, logged by :func:`_generic_command`.
_GENERIC = ("spmv", "spmm", "spsv", "spgemm")
_OPERATION = {111: "N", 112: "T", 113: "C"}


def trace_value(value: Any) -> str:
    """How one argument appears in a trace line."""
    if value is None:
        return "0"
    if isinstance(value, enum.Enum):
        return str(int(value.value)) if isinstance(value.value, int) else str(value.value)
    if isinstance(value, (bool, int, float, complex, str, np.number)):
        return format_value(value)
    if hasattr(value, "ptr"):
        return f"0x{int(value.ptr):x}"
    if isinstance(value, np.ndarray):
        return format_value(value.reshape(-1)[0]) if value.size == 1 else f"0x{value.ctypes.data:x}"
    return f"0x{id(value):x}"


def _scalar_flags(flag: str, value: Any, host_mode: bool) -> list[str]:
    """``--alpha 2`` (``--alphai`` for an imaginary part); nothing for a device-mode scalar."""
    if not host_mode or value is None:
        return []
    if isinstance(value, np.ndarray):
        value = value.reshape(-1)[0]
    try:
        v = complex(value)
    except (TypeError, ValueError):
        return []
    out = [f"--{flag} {v.real:g}"]
    if v.imag:
        out.append(f"--{flag}i {v.imag:g}")
    return out


def _operation(value: Any) -> str:
    if isinstance(value, str):
        return value.upper()
    return _OPERATION.get(int(value), str(value))


def _base(descr: Any) -> int:
    return int(getattr(descr, "base", 0))


def _direction(value: Any) -> int:
    from ._types import Direction, as_enum

    return int(as_enum(Direction, value, "dir"))


def _triangle_flags(descr: Any) -> list[str]:
    """``--uplo`` and ``--diag`` of a descriptor's fill mode and diagonal type."""
    uplo = "U" if int(getattr(descr, "fill_mode", 0)) == 1 else "L"
    diag = "U" if int(getattr(descr, "diag_type", 0)) == 1 else "N"
    return [f"--uplo {uplo}", f"--diag {diag}"]


def bench_command(name: str, letter: str, values: dict[str, Any], host_mode: bool) -> str | None:
    """The ``rocmath-bench sparse`` command of one call, or None for routines it does not run.

    Parameters
    ----------
    name
        The routine name without precision letter (``csrmv``).
    letter
        The precision letter (s, d, c, z).
    values
        The call's arguments by C parameter name.
    host_mode
        Whether scalars are host values (device-mode scalars are left out).
    """
    function = BENCH_FUNCTIONS.get(name)
    if function is None:
        return None
    v = values
    if function in _GENERIC:
        return _generic_command(function, v, host_mode)
    flags = [f"-f {function}", f"-r {letter}"]
    if function in ("axpyi", "doti", "dotci", "gthr", "gthrz", "sctr", "roti"):
        flags += [f"-z {int(v['nnz'])}", f"--indexbaseA {int(v['idx_base'])}"]
        if function == "axpyi":
            flags += _scalar_flags("alpha", v["alpha"], host_mode)
        if function == "roti":
            flags += _scalar_flags("alpha", v["c"], host_mode) + _scalar_flags("beta", v["s"], host_mode)
    elif function in ("csrmv", "coomv"):
        if int(getattr(v["descr"], "type", 0)) != 0:
            return None  # the bench builds general matrices only
        flags += [f"-m {int(v['m'])}", f"-n {int(v['n'])}", f"-z {int(v['nnz'])}"]
        flags += _scalar_flags("alpha", v["alpha"], host_mode) + _scalar_flags("beta", v["beta"], host_mode)
        flags += [f"--transposeA {_operation(v['trans'])}", f"--indexbaseA {_base(v['descr'])}"]
        if function == "csrmv" and v["info"] is not None:
            flags.append("--spmv_alg 2")  # analysed: csr_adaptive
    elif function == "csrmm":
        flags += [f"-m {int(v['m'])}", f"-n {int(v['n'])}", f"-k {int(v['k'])}", f"-z {int(v['nnz'])}"]
        flags += _scalar_flags("alpha", v["alpha"], host_mode) + _scalar_flags("beta", v["beta"], host_mode)
        flags += [f"--transposeA {_operation(v['trans_A'])}", f"--transposeB {_operation(v['trans_B'])}",
                  f"--indexbaseA {_base(v['descr'])}"]
    elif function in ("bsrmv", "bsrsv"):
        # the bench's random BSR matrices have ceil(z / block_dim^2) blocks: -z replays nnzb
        if function == "bsrmv" and int(getattr(v["descr"], "type", 0)) != 0:
            return None
        bd = int(v["block_dim"])
        flags.append(f"-m {int(v['mb']) * bd}")
        if function == "bsrmv":
            flags.append(f"-n {int(v['nb']) * bd}")
        flags += [f"-z {int(v['nnzb']) * bd * bd}", f"--blockdim {bd}", f"--direction {_direction(v['dir'])}"]
        flags += _scalar_flags("alpha", v["alpha"], host_mode)
        if function == "bsrmv":
            flags += _scalar_flags("beta", v["beta"], host_mode)
        flags.append(f"--transposeA {_operation(v['trans'])}")
        if function == "bsrsv":
            flags += _triangle_flags(v["descr"])
        flags.append(f"--indexbaseA {_base(v['descr'])}")
    elif function == "ellmv":
        if int(getattr(v["descr"], "type", 0)) != 0:
            return None
        # the bench's random ELL matrices spread -z evenly over the rows: -z m*w replays the width w
        flags += [f"-m {int(v['m'])}", f"-n {int(v['n'])}", f"-z {int(v['m']) * int(v['ell_width'])}"]
        flags += _scalar_flags("alpha", v["alpha"], host_mode) + _scalar_flags("beta", v["beta"], host_mode)
        flags += [f"--transposeA {_operation(v['trans'])}", f"--indexbaseA {_base(v['descr'])}"]
    elif function == "hybmv":
        hyb = v["hyb"]
        if int(getattr(v["descr"], "type", 0)) != 0 or not hasattr(hyb, "ell_width"):
            return None
        # the user partition at the matrix's ELL width on an evenly spread -z (ELL slots counted as entries)
        # replays its ELL width and COO entries
        m, width = int(hyb.m), int(hyb.ell_width)
        flags += [f"-m {m}", f"-n {int(hyb.n)}", f"-z {m * width + int(hyb.coo_nnz)}", "--hybpart 1",
                  f"--hybellwidth {width}"]
        flags += _scalar_flags("alpha", v["alpha"], host_mode) + _scalar_flags("beta", v["beta"], host_mode)
        flags += [f"--transposeA {_operation(v['trans'])}", f"--indexbaseA {_base(v['descr'])}"]
    elif function in ("csrsv", "csrsm"):
        trans = "trans" if function == "csrsv" else "trans_A"
        flags.append(f"-m {int(v['m'])}")
        if function == "csrsm":
            flags.append(f"-k {int(v['nrhs'])}")
        flags += [f"-z {int(v['nnz'])}", *_scalar_flags("alpha", v["alpha"], host_mode),
                  f"--transposeA {_operation(v[trans])}"]
        if function == "csrsm":
            flags.append(f"--transposeB {_operation(v['trans_B'])}")
        flags += [*_triangle_flags(v["descr"]), f"--indexbaseA {_base(v['descr'])}"]
    elif function in ("csrilu0", "csric0"):
        flags += [f"-m {int(v['m'])}", f"-z {int(v['nnz'])}", f"--indexbaseA {_base(v['descr'])}"]
    elif function == "csrgemm":
        flags += [f"-m {int(v['m'])}", f"-n {int(v['n'])}", f"-k {int(v['k'])}", f"-z {int(v['nnz_A'])}"]
        flags += _scalar_flags("alpha", v["alpha"], host_mode)
        flags += _scalar_flags("beta", v["beta"], host_mode)
        flags += [f"--transposeA {_operation(v['trans_A'])}", f"--transposeB {_operation(v['trans_B'])}",
                  f"--indexbaseA {_base(v['descr_A'])}"]
    else:
        flags += [f"-m {int(v['m'])}", f"--batch_count {int(v['batch_count'])}",
                  f"--batch_stride {int(v['batch_stride'])}"]
    return "rocmath-bench sparse " + " ".join(flags)


#: The sparse formats ``rocmath-bench sparse`` builds for the generic routines (others have no bench line).
_BENCH_FORMATS = {"spmv": (0, 2, 3), "spmm": (0, 2, 3), "spsv": (0, 2), "spgemm": (2,)}  # 0 coo, 2 csr, 3 csc
#: rocsparse-bench's ``--indextype`` by (pointer or row index type, column index type).
_INDEXTYPE = {(2, 2): "s", (3, 3): "d", (3, 2): "m"}
_LETTER = {151: "s", 152: "d", 154: "c", 155: "z"}


def _generic_command(function: str, v: dict[str, Any], host_mode: bool) -> str | None:
    """The command of a generic spmv / spmm / spsv / spgemm call: its compute stage only (spgemm: also its
    numeric stage, the compute stage's values again; the other stages are auxiliary steps), precision from
    ``compute_type``, the sparse matrix's format, index types and base, spsv's fill mode and diagonal, spmm's
    dense orders and spmv's / spmm's algorithm.  None for what the bench cannot rebuild: formats other than
    :data:`_BENCH_FORMATS`, mixed precisions (it runs every operand in the one ``-r`` precision), an spgemm
    without its product (a null alpha), a batched spmm."""
    from ._descr import DnMatDescr, SpMatDescr
    from ._types import (
        Datatype,
        Format,
        Operation,
        SpGEMMStage,
        SpMMAlg,
        SpMMStage,
        SpMVAlg,
        SpMVStage,
        SpSVStage,
        as_enum,
    )

    timed = {"spmv": (SpMVStage.compute,), "spmm": (SpMMStage.compute,), "spsv": (SpSVStage.compute,),
             "spgemm": (SpGEMMStage.compute, SpGEMMStage.numeric)}[function]
    if as_enum(type(timed[0]), v["stage"], "stage") not in timed:
        return None
    mats = [v[k] for k in {"spmv": ("mat",), "spsv": ("mat",), "spmm": ("mat_A",), "spgemm": ("A", "B", "D", "C")}[
        function]]
    dense = [v[k] for k in {"spmv": ("x", "y"), "spsv": ("x", "y"), "spmm": ("mat_B", "mat_C"), "spgemm": ()}[
        function]]
    if not all(isinstance(x, SpMatDescr) for x in mats) or (
            function == "spmm" and not all(isinstance(d, DnMatDescr) for d in dense)):
        return None  # an invalid call (the routine reports it): nothing to replay
    if function == "spmm" and any(getattr(x, "batch_count", 1) != 1 for x in (*mats, *dense)):
        return None  # strided batches (the others use entry 0): the bench builds one matrix of each operand
    mat = mats[0]
    fmt = mat.format
    ct = as_enum(Datatype, v["compute_type"], "compute_type")
    if int(fmt) not in _BENCH_FORMATS[function] or any(getattr(d, "data_type", ct) is not ct
                                                        for d in (*mats, *dense)):
        return None
    if function == "spgemm" and host_mode and v["alpha"] is None:
        return None
    types = (mat.col_type, mat.row_type) if fmt is Format.csc else (mat.row_type, mat.col_type)
    flags = [f"-f {function}", f"-r {_LETTER[int(ct)]}", f"-m {mat.rows}"]
    if function == "spmv":
        flags.append(f"-n {mat.cols}")
    elif function == "spmm":
        flags += [f"-n {v['mat_C'].cols}", f"-k {mat.cols}"]
    elif function == "spgemm":
        flags += [f"-n {mats[1].cols}", f"-k {mat.cols}"]
    flags.append(f"-z {mat.nnz}")
    flags += _scalar_flags("alpha", v["alpha"], host_mode)
    if function in ("spmv", "spmm") or (function == "spgemm" and mats[2].nnz):  # an empty D takes no part
        flags += _scalar_flags("beta", v["beta"], host_mode)
    trans = "trans" if function in ("spmv", "spsv") else "trans_A"
    flags.append(f"--transposeA {_operation(as_enum(Operation, v[trans], trans))}")
    if function in ("spmm", "spgemm"):
        flags.append(f"--transposeB {_operation(as_enum(Operation, v['trans_B'], 'trans_B'))}")
    if function == "spmm":
        flags += [f"--orderB {int(v['mat_B'].order)}", f"--orderC {int(v['mat_C'].order)}"]
    if function == "spsv":
        flags += _triangle_flags(mat.descr)
    flags += [f"--indexbaseA {int(mat.idx_base)}", f"--format {int(fmt)}",
              f"--indextype {_INDEXTYPE[(int(types[0]), int(types[1]))]}"]
    if function in ("spmv", "spmm"):
        alg_cls = SpMVAlg if function == "spmv" else SpMMAlg
        flags.append(f"--{function}_alg {int(as_enum(alg_cls, v['alg'], 'alg'))}")
    return "rocmath-bench sparse " + " ".join(flags)


def _problem(fname: str, name: str, letter: str, names: tuple[str, ...], values: dict[str, Any],
             host_mode: bool) -> str:
    """The profile's problem key: the bench command, else the function with its plain arguments."""
    try:
        command = bench_command(name, letter, values, host_mode)
    except (TypeError, ValueError, KeyError):  # an argument no command can say (invalid calls are logged too)
        command = None
    if command is not None:
        return command
    plain = [f"{n}={trace_value(values[n])}" for n in names[1:]
             if isinstance(values[n], (bool, int, float, complex, str, np.number, enum.Enum))]
    return f"rocsparse_{fname} " + " ".join(plain)


def logged_call(handle: Any, fname: str, name: str, letter: str, names: tuple[str, ...], values: dict[str, Any],
                run: Callable[[], Any]) -> Any:
    """Write the trace and bench lines of one call, then ``run`` it (counted by the profile layer)."""
    layer = handle.layer_mode
    host_mode = handle.pointer_mode is PointerMode.host
    logger = handle.logger
    if layer & LayerMode.log_trace:
        logger.write("trace", ",".join([f"rocsparse_{fname}", *(trace_value(values[n]) for n in names)]))
    if layer & LayerMode.log_bench:
        try:
            command = bench_command(name, letter, values, host_mode)
        except (TypeError, ValueError, KeyError):
            command = None
        if command is not None:
            logger.bench(command)
    if layer & LayerMode.log_profile:
        key = (f"rocsparse_{fname}", _problem(fname, name, letter, names, values, host_mode))
        with profiling(handle.profile_table(), key):
            return run()
    return run()
