"""``rocmath-bench solver``: rocsolver-bench's command line, run on rocmath.solver.

``rocmath-bench solver -f getrf_strided_batched -r d -m 64 -n 64 --lda 64 --strideA 4096 --strideP 64
--batch_count 1000 -i 10`` names the function as rocsolver-bench does (``-f`` the routine with its
flavour, ``-r`` the precision: s, d, c, z or f32_r, f64_r, f32_c, f64_c) and gives every other
argument as ``--<parameter> VALUE`` with rocSOLVER's parameter names (``-m``, ``-n``, ``-k``,
``--nrhs``, ``--lda``, ``--strideA``, ``--strideP``, ``--uplo U``, ``--trans N``, ``--evect V``...),
which is what rocmath.solver's ``ROCSOLVER_LAYER=2`` bench lines write, so they replay here.

Any routine of rocmath.solver runs: its operands are built from the routine's description
(matrices with their leading dimensions, strided vectors such as ``ipiv``/``tau``/``D``, ``info``):
omitted sizes are 128 (``nrhs`` 1), leading dimensions the rows they need at least, strides the
entry sizes, ``batch_count`` 1.  Matrices are symmetric and diagonally dominant (so factorizations
go through: positive definite for potrf), pivots are the identity.  The command times ``-j`` cold
and ``-i`` timed calls between stream synchronizations and prints one CSV row: the arguments,
``gpu_time_us`` (the median), and where a SciPy reference exists (getrf, getrs, gesv, getri, potrf,
potrs, posv, geqrf, gels, syev/heev, syevd/heevd, gesvd: a Python loop over the batch entries on
host copies, as rocsolver-bench's CPU reference), ``cpu_time_us`` and ``ratio = cpu / gpu`` (> 1:
rocmath faster).

Exit status: 0 on success, 1 when the run fails, 2 for a usage error (unknown function, a
parameter the function does not have).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import numpy as np

__all__ = ["main", "parse"]

DEFAULT_SIZE = 128
_PRECISION = {"s": "s", "d": "d", "c": "c", "z": "z", "f32_r": "s", "f64_r": "d", "f32_c": "c", "f64_c": "z"}
_SIZES = ("m", "n", "k", "nrhs", "nv", "nu", "nc")
_ENUM_DEFAULTS = {"uplo": "U", "trans": "N", "side": "L", "diag": "N"}  # rocsolver-bench's defaults


class UsageError(Exception):
    """A command line that names no routine or arguments it does not have."""


def parse(argv: Sequence[str]) -> tuple[str, str, dict[str, str], int, int]:
    """``(function, precision letter, {parameter: text}, iters, cold_iters)`` of a command line."""
    function = precision = None
    params: dict[str, str] = {}
    iters, cold = 10, 2
    it = iter(argv)
    for flag in it:
        if not flag.startswith("-"):
            raise UsageError(f"unexpected argument {flag!r}")
        try:
            value = next(it)
        except StopIteration:
            raise UsageError(f"{flag} needs a value") from None
        name = flag.lstrip("-")
        if name in ("f", "function"):
            function = value
        elif name in ("r", "precision"):
            if value not in _PRECISION:
                raise UsageError(f"unknown precision {value!r} (s, d, c, z, f32_r, f64_r, f32_c, f64_c)")
            precision = _PRECISION[value]
        elif name in ("i", "iters"):
            iters = int(value)
        elif name in ("j", "cold_iters"):
            cold = int(value)
        else:
            params[name] = value
    if function is None:
        raise UsageError("-f FUNCTION is required")
    return function, precision or "s", params, max(iters, 1), max(cold, 0)


def _resolve(function: str, letter: str) -> Any:
    import rocmath.solver as solver

    fn = getattr(solver, f"{letter}{function}", None)
    if fn is None or not hasattr(fn, "routine"):
        raise UsageError(f"rocmath.solver has no {letter}{function}")
    return fn


def _value(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text  # an enum letter (U, N, V...)


class _Operands:
    """Device operands of one call, built from the routine's description."""

    def __init__(self, fn: Any, given: dict[str, Any]):
        import rocmath as rm

        self.rm = rm
        routine, flavour = fn.routine, fn.flavour
        self.names = fn.routine.signature(flavour)
        self.dtype = np.dtype(fn.precision.dtype)
        self.batched = flavour.name == "BATCHED"
        unknown = set(given) - set(self.names)
        if unknown:
            raise UsageError(f"{fn.__name__} has no parameter(s) {', '.join(sorted(unknown))}")
        v = dict(given)
        for name in self.names[1:]:
            if name in v:
                continue
            if name in _SIZES:
                v[name] = 1 if name == "nrhs" else DEFAULT_SIZE
            elif name in _ENUM_DEFAULTS:
                v[name] = _ENUM_DEFAULTS[name]
        size = max([int(v[s]) for s in _SIZES if s in v] or [DEFAULT_SIZE])
        rows = max(int(v.get("m", size)), int(v.get("n", size)), 1)
        batch = int(v.setdefault("batch_count", 1)) if "batch_count" in self.names else 1
        rng = np.random.default_rng(69069)
        self.keep: list[Any] = []
        self.host: dict[str, np.ndarray] = {}
        # Matrices: ld x size entries, symmetric and diagonally dominant.
        for matrix, ld_name in routine.arrays.items():
            ld = int(v.setdefault(ld_name, rows))
            stride_name = routine.matrix_stride(matrix)
            entry = ld * size
            if stride_name in self.names:
                entry = int(v.setdefault(stride_name, entry))
            host = np.zeros((batch, size, max(ld, size)), self.dtype)
            for b in range(batch):
                a = rng.standard_normal((size, size)).astype(self.dtype)
                a = a + a.conj().T + 2 * size * np.eye(size, dtype=self.dtype)
                host[b, :, :size] = a
            cm = np.ascontiguousarray(host[:, :, :ld])  # entry b column-major: row-major (size, ld) = columns
            self.host[matrix] = host[:, :size, :size].transpose(0, 2, 1).copy()
            if self.batched:
                entries = [rm.to_device(cm[b]) for b in range(batch)]
                self.keep.extend(entries)
                v[matrix] = rm.to_device(np.array([e.ptr for e in entries] or [0], np.uint64))
            else:
                flat = np.zeros(max(entry * (batch - 1) + ld * size, 1), self.dtype)
                for b in range(batch):
                    flat[b * entry:b * entry + ld * size] = cm[b].reshape(-1)
                v[matrix] = rm.to_device(flat)
            self.keep.append(v[matrix])
        # Strided vectors: ipiv as the identity permutation, the others zero (16 bytes an element
        # is enough for any of their types).
        for vector, stride_name in routine.vectors.items():
            count = rows + 1
            if stride_name in self.names:
                count = int(v.setdefault(stride_name, count))
            if vector == "ipiv" and self.dtype.kind in "fc" and fn.routine.name.startswith(("geq", "gel", "ger",
                                                                                               "org", "orm", "ung",
                                                                                               "unm")):
                arr = np.zeros(count * batch, self.dtype)  # Householder scalars, named ipiv in rocSOLVER
            elif vector == "ipiv":
                arr = np.tile(np.arange(1, count + 1, dtype=np.int32), batch)
            else:
                arr = np.zeros(2 * count * batch, np.complex128).view(np.uint8)
            v[vector] = rm.to_device(arr)
            self.keep.append(v[vector])
        for pointer in routine.pointers:
            if pointer in self.names and pointer not in v:
                v[pointer] = rm.zeros(max(batch, 1) * 4, np.int32)
                self.keep.append(v[pointer])
        for name in self.names[1:]:
            if name not in v:
                raise UsageError(f"{fn.__name__}: give --{name} (no default for it)")
        self.values = {n: (_value(x) if isinstance(x, str) else x) for n, x in v.items()}
        self.batch = batch
        n = int(v.get("n", size))
        self.shape = (int(v.get("m", n)), n)  # of A, for the reference


def _reference(function: str) -> Callable[[np.ndarray], Any] | None:
    """The SciPy reference of a routine on one host entry (None when there is none)."""
    import scipy.linalg as sl

    base = function.split("_batched")[0].split("_strided")[0]
    table: dict[str, Callable[[np.ndarray], Any]] = {
        "getrf": lambda a: sl.lu_factor(a, check_finite=False),
        "getf2": lambda a: sl.lu_factor(a, check_finite=False),
        "getrs": lambda a: sl.lu_solve(sl.lu_factor(a, check_finite=False), a[:, :1], check_finite=False),
        "gesv": lambda a: sl.solve(a, a[:, :1], check_finite=False),
        "getri": lambda a: sl.inv(a, check_finite=False),
        "potrf": lambda a: sl.cholesky(a, check_finite=False),
        "potf2": lambda a: sl.cholesky(a, check_finite=False),
        "potrs": lambda a: sl.cho_solve(sl.cho_factor(a, check_finite=False), a[:, :1], check_finite=False),
        "posv": lambda a: sl.solve(a, a[:, :1], assume_a="pos", check_finite=False),
        "geqrf": lambda a: sl.qr(a, mode="raw", check_finite=False),
        "gels": lambda a: sl.lstsq(a, a[:, :1], check_finite=False),
        "syev": lambda a: sl.eigh(a, check_finite=False), "heev": lambda a: sl.eigh(a, check_finite=False),
        "syevd": lambda a: sl.eigh(a, check_finite=False), "heevd": lambda a: sl.eigh(a, check_finite=False),
        "gesvd": lambda a: sl.svd(a, check_finite=False),
    }
    return table.get(base)


def main(argv: Sequence[str], out: TextIO | None = None) -> int:
    """Entry of ``rocmath-bench solver``; returns the exit status."""
    out = out or sys.stdout
    try:
        function, letter, given, iters, cold = parse(argv)
        fn = _resolve(function, letter)
        ops = _Operands(fn, {k: _value(x) for k, x in given.items()})
    except UsageError as exc:
        sys.stderr.write(f"rocmath-bench solver: {exc}\n")
        return 2
    import rocmath
    from rocmath import blas

    from .timing import median

    handle = blas.create_handle()
    args = [handle, *(ops.values[n] for n in ops.names[1:])]
    try:
        times = []
        for i in range(cold + iters):
            t0 = time.perf_counter_ns()
            fn(*args)
            handle.stream.synchronize()
            if i >= cold:
                times.append(time.perf_counter_ns() - t0)
    except rocmath.RocmathError as exc:
        sys.stderr.write(f"rocmath-bench solver: {fn.__name__}: {exc}\n")
        return 1
    finally:
        blas.destroy_handle(handle)
    gpu_us = median(times) / 1e3
    columns = [n for n in ops.names[1:] if not _is_pointer(fn, n)]
    cells = [str(ops.values[n]) for n in columns]
    ref = _reference(function)
    header = [*columns, "gpu_time_us"]
    row = [*cells, f"{gpu_us:.3f}"]
    if ref is not None:
        m, n = ops.shape
        host = next(iter(ops.host.values()))[:, :m, :n]
        rtimes = []
        for _ in range(max(1, min(iters, 5))):
            t0 = time.perf_counter_ns()
            for b in range(ops.batch):
                ref(host[b])
            rtimes.append(time.perf_counter_ns() - t0)
        cpu_us = median(rtimes) / 1e3
        header += ["cpu_time_us", "ratio"]
        row += [f"{cpu_us:.3f}", f"{cpu_us / gpu_us:.3f}"]
    out.write(f"{fn.__name__} ({fn.precision.datatype}), {iters} timed calls after {cold} cold\n")
    out.write(",".join(header) + "\n" + ",".join(row) + "\n")
    return 0


def _is_pointer(fn: Any, name: str) -> bool:
    r = fn.routine
    return name in r.arrays or name in r.vectors or name in r.pointers
