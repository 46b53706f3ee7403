"""How a rocBLAS routine is written once and bound to its s/d/c/z x plain/batched/strided names.

A routine is a :class:`Routine`: its plain C parameter list (after the handle), which
parameters are arrays (and after which increment or leading dimension their
strided-batched stride goes), and one generic implementation taking a :class:`Call`.
:func:`bind` derives the ``_batched`` and ``_strided_batched`` signatures from it and
makes the public function, so each public name is one visible line::

    saxpy = bind(AXPY, S)
    daxpy_strided_batched = bind(AXPY, D, STRIDED)

Every public function runs the same steps, as rocBLAS's ``*_impl`` do: check the
handle; answer a device-memory size query (at once, or after the body's own checks for
the routines whose :attr:`Routine.query` says so); log (before validation, so
invalid calls are logged too); then the routine's own argument check, quick return and
launch.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import rocmath
from rocmath import float8
from rocmath.arguments import Arguments, bind_arguments
from rocmath.batch import BatchOperand
from rocmath.errors import (
    RocblasCheckNumericsFailError,
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasStatus,
)
from rocmath.handle import LayerMode
from rocmath.launch import Buffer, Replay, launch
from rocmath.log import profiling
from rocmath.plans import Plan, find_plan, planned_call, read_back, recorded
from rocmath.precision import BF16, Precision, from_bfloat16, to_bfloat16
from rocmath.stream import Task

from ._handle import BlasHandle, check_handle, trace
from ._types import CheckNumericsMode, Side, as_enum, c_integer


class Flavour(enum.Enum):
    """The three forms of every routine."""

    PLAIN = ""
    BATCHED = "_batched"
    STRIDED = "_strided_batched"


PLAIN, BATCHED, STRIDED = Flavour.PLAIN, Flavour.BATCHED, Flavour.STRIDED


class _QueryAnswer(BaseException):
    """Raised in a body, during a size query, where rocBLAS answers it.  A BaseException so
    that no ``except Exception`` in a body takes it for an error."""


@dataclass(frozen=True)
class Routine:
    """A rocBLAS routine, written once.

    Attributes
    ----------
    name
        The name without precision prefix and flavour suffix (``"axpy"``).
    params
        The plain C parameters after the handle, in rocBLAS order.
    arrays
        Array parameter -> the parameter after which its stride goes in the strided
        form (its increment or leading dimension; itself for arrays without one).
    impl
        The generic body: argument checks, quick returns and the launch.
    result
        The output parameter of reductions: optional in Python (host pointer mode returns
        the value), and ``batch_count`` goes before it, as in rocBLAS.
    workspace
        Bytes of workspace the call needs (for size queries), or a tuple of buffer sizes
        (each rounded up on its own, as rocBLAS does); None: none.
    summary
        One line for the docstring of every bound name.
    query
        Where rocBLAS answers a device-memory size query: None, at once, before any check
        (RETURN_ZERO_DEVICE_MEMORY_SIZE_IF_QUERIED; the reductions and gemv with their
        workspace from the raw sizes); ``"pointers"``, after the enum and size checks and the
        size quick returns, before any pointer or scalar is looked at (trmv, tpmv, trsv,
        symv, hemv, trsm); ``"operands"``, after the pointer checks too (tbmv).
    """

    name: str
    params: tuple[str, ...]
    arrays: dict[str, str]
    impl: Callable[[Call], Any]
    result: str | None = None
    workspace: Callable[[Call], int | tuple[int, ...]] | None = None
    summary: str = ""
    stride_names: dict[str, str] = field(default_factory=dict)
    optional: tuple[str, ...] = ()  # outputs a host-mode caller may leave out (they are returned)
    query: str | None = None

    def signature(self, flavour: Flavour) -> tuple[str, ...]:
        """The C parameter names of one flavour, handle first."""
        names = list(self.params)
        if flavour is STRIDED:
            for array, after in self.arrays.items():
                names.insert(names.index(after) + 1, self.stride_names.get(array, f"stride_{array.lower()}"))
        if flavour is not PLAIN:
            if self.result is not None:
                names.insert(names.index(self.result), "batch_count")
            else:
                names.append("batch_count")
        return ("handle", *names)


#: Integer parameters that stay 32-bit in the ILP64 API (rocblas_gemm_ex_64's ``int32_t solution_index``).
INT32_ALWAYS = frozenset({"solution_index"})


class Call(Arguments):
    """One call of a bound routine: its arguments, and the helpers its body uses.

    The helpers raise the rocBLAS status exceptions naming the argument and its
    position in the C prototype, so bodies read like rocBLAS's ``*_arg_check``.
    """

    precision: Precision
    handle: BlasHandle

    def __init__(self, fname: str, routine: Routine, precision: Precision, flavour: Flavour,
                 names: tuple[str, ...], values: dict[str, Any], ilp64: bool = False):
        super().__init__(fname, precision, names, values)
        self.routine = routine
        self.flavour = flavour
        self.ilp64 = ilp64  # a ``_64`` function: int64_t sizes (and amax/amin results)
        self.result_host: np.ndarray | None = None  # a reduction's host staging array
        self.float8: dict[str, int] = {}  # operands holding float8 codes: their format (gemm_ex3)
        self.write_only: set[str] = set()  # outputs the routine does not read (check-numerics scans them after only)

    @property
    def public_name(self) -> str:
        """The function's name without ``rocblas_`` (``fname`` is the same for both APIs)."""
        return f"{self.fname}_64" if self.ilp64 else self.fname

    @property
    def querying(self) -> bool:
        """Whether this call runs during a device-memory size query (only routines with a
        :attr:`Routine.query` point run their body then)."""
        return self.handle.is_device_memory_size_query()

    def _query_point(self, operand: bool) -> None:
        """During a size query, stop the body where rocBLAS answers the query: at the first look at
        a pointer or scalar, or (``"operands"`` routines) at the first operand or launch."""
        at = self.routine.query
        if at is not None and (operand or at == "pointers") and self.querying:
            raise _QueryAnswer

    def enum(self, name: str, cls: Any, allowed: tuple[Any, ...] | None = None) -> Any:
        return as_enum(cls, self.values[name], name, self.index(name), allowed)

    def int(self, name: str) -> int:
        """An integer parameter within its C type: ``rocblas_int`` (int32) in the LP64 functions,
        ``int64_t`` in the ``_64`` ones; strides are ``rocblas_stride`` (int64) in both."""
        value = self.values[name]
        bits = 64 if (self.ilp64 or name.startswith("stride")) and name not in INT32_ALWAYS else 32
        if type(value) is int and -(1 << (bits - 1)) <= value < 1 << (bits - 1):
            return value  # the common case, without looking up the argument's position
        return c_integer(value, name, self.index(name), bits, "int32_t" if name in INT32_ALWAYS else "rocblas_int")

    def invalid_size(self, name: str, why: str) -> RocblasInvalidSizeError:
        return RocblasInvalidSizeError(why, arg=name, index=self.index(name))

    def invalid_pointer(self, name: str, why: str = "null pointer") -> RocblasInvalidPointerError:
        self._query_point(False)
        return RocblasInvalidPointerError(why, arg=name, index=self.index(name))

    def batches(self) -> int:
        """The batch count as given (1 for plain calls), unchecked: Level-1 routines treat
        ``batch_count <= 0`` as a quick return, not an error."""
        return 1 if self.flavour is PLAIN else self.int("batch_count")

    @property
    def batch_count(self) -> int:
        """1 for plain calls; the checked ``batch_count`` otherwise (< 0 is invalid_size)."""
        if self.flavour is PLAIN:
            return 1
        n = self.int("batch_count")
        if n < 0:
            raise self.invalid_size("batch_count", "must be non-negative")
        return n

    def is_missing(self, name: str) -> bool:
        """A null scalar: None in host pointer mode, where 0 is a value (``alpha=0``), and
        None or a 0 pointer in device pointer mode."""
        self._query_point(False)
        return self.values[name] is None if self.host_mode else self.is_null(name)

    def null_array_alpha(self, names: tuple[str, ...], dtype: Any = None) -> Any:
        """Device pointer mode with a null array among ``names``: the device alpha, read back now
        (synchronously); else None.  rocBLAS checks no array in device mode, and its kernels return
        before reading the arrays alpha multiplies when it is 0 (gemv_device.hpp, the axpy and
        rank-update kernels' ``if(!alpha)``; Level 3 copies alpha to the host first): then the
        call succeeds without them.  With another alpha the caller refuses them."""
        if self.host_mode or not any(self.is_null(name) for name in names):
            return None
        return self.read_scalar("alpha", dtype)

    def is_null(self, name: str) -> bool:
        self._query_point(False)
        value = self.values[name]
        if value is None:
            return True
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            return int(value) == 0
        return False

    def ptr(self, name: str) -> int:
        """A device pointer argument as an int (DeviceArray, int or None)."""
        value = self.values[name]
        if value is None:
            return 0
        if isinstance(value, rocmath.DeviceArray):
            return value.ptr
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            return int(value)
        raise self.invalid_pointer(name, f"expected a device pointer or DeviceArray, got {type(value).__name__}")

    def stride(self, array: str) -> int:
        if self.flavour is not STRIDED:
            return 0
        return self.int(self.routine.stride_names.get(array, f"stride_{array.lower()}"))

    # -- operands -------------------------------------------------------------------------------

    def vector(self, name: str, n: int, inc: int, *, writable: bool = False, dtype: Any = None) -> BatchOperand:
        """A vector argument of ``n`` elements with increment ``inc`` in this call's flavour.

        A negative increment follows reference BLAS: the pointer is the lowest address and
        element 0 is the last one."""
        self._query_point(True)
        offset = (n - 1) * -inc if inc < 0 and n > 0 else 0
        return BatchOperand(self.ptr(name), np.dtype(dtype or self.dtype), (n,), (inc,), self.batch_count,
                            self.stride(name), self.flavour is BATCHED, offset, writable, name,
                            self._compute(dtype), self.values[name])

    def _compute(self, dtype: Any) -> np.dtype[Any] | None:
        # Half and bfloat16 are storage types: kernels get float32 copies.
        return self.precision.compute_dtype if dtype is None and self.precision.storage_only else None

    def matrix(self, name: str, rows: int, cols: int, ld: int, *, writable: bool = False,
               dtype: Any = None) -> BatchOperand:
        """A column-major ``rows x cols`` matrix argument with leading dimension ``ld``."""
        self._query_point(True)
        return BatchOperand(self.ptr(name), np.dtype(dtype or self.dtype), (rows, cols), (1, ld), self.batch_count,
                            self.stride(name), self.flavour is BATCHED, 0, writable, name, self._compute(dtype),
                            self.values[name])

    def scalar(self, name: str, dtype: Any = None) -> Any:
        """A scalar argument for the kernel: a 1-element host array in host pointer mode, a
        device view read when the kernel runs in device mode.  None is invalid_pointer."""
        self._query_point(True)
        dt = np.dtype(dtype or self.precision.compute_dtype)
        if self.is_missing(name):
            raise self.invalid_pointer(name)
        value = self.values[name]
        storage = np.dtype(dtype) if dtype is not None else self.dtype
        if self.host_mode:
            v = _host_scalar(value, dt, name, self.index(name))
            if storage != dt:  # a half alpha is a half value, even given as a Python float
                v = _round_to(storage, v, dt)
            return np.array([v], dtype=dt)
        if storage != dt:
            return BatchOperand(self.ptr(name), storage, (), (), 1, name=name, compute_dtype=dt, owner=value)
        return Buffer(self.ptr(name), dt, (1,), name=name, owner=value)

    def host_scalar(self, name: str, dtype: Any = None) -> Any:
        """The scalar's value on the host, for quick-return rules: read directly in host mode;
        None in device mode (rocBLAS only applies value rules to host scalars)."""
        self._query_point(True)
        if not self.host_mode or self.is_missing(name):
            return None
        dt = np.dtype(dtype or self.precision.compute_dtype)
        return _host_scalar(self.values[name], dt, name, self.index(name))

    def read_scalar(self, name: str, dtype: Any = None) -> Any:
        """The scalar's value, copied back synchronously in device mode (as rocBLAS gemm does)."""
        self._query_point(True)
        if self.host_mode:
            return self.host_scalar(name, dtype)
        dt = np.dtype(dtype or self.precision.compute_dtype)
        return _read_back(_copy_out, Buffer(self.ptr(name), dt, (1,), name=name), dt, f"{self.fname} scalar read",
                          self.handle.stream)

    # -- launching ------------------------------------------------------------------------------

    @property
    def spans_allowed(self) -> bool:
        """Whether operands may be launched as flat spans of memory (:class:`~rocmath.launch.Buffer`),
        the padding between columns included: not under check-numerics, which scans the operands
        described as vectors and matrices (:class:`BatchOperand`) and nothing else."""
        return not getattr(self.handle, "check_numerics", 0)

    def launch(self, kernel: Callable[..., Any], *args: Any, flops: float = 0.0, bytes: float = 0.0,
               triangles: dict[int, tuple[bool, bool] | None] | None = None, streaming: bool = False,
               brief: bool = False) -> Task:
        """Enqueue ``kernel(*args)`` on the handle's stream, named after the rocBLAS function.

        ``triangles`` maps ``id(arg)`` of a matrix operand to ``(upper, unit_diagonal)``: only
        that triangle (diagonal included, as rocBLAS's scan) is scanned by check-numerics, the
        other one may hold anything; to None for a banded or packed matrix, which rocBLAS does
        not scan.  ``streaming``: see :func:`rocmath.launch.launch`.  ``brief``: the work is short
        whatever its bytes (BLAS on a small entry): it runs on the calling thread when the stream
        is idle, as small launches do, sparing the two thread switches through the worker."""
        self._query_point(True)
        if self.ilp64:
            self._ilp64_limits()
        if not bytes:
            # The operands' bytes: what decides that a small launch runs inline on one thread.
            bytes = float(sum(a.dtype.itemsize * a.batch_count * int(math.prod(a.shape))
                              for a in args if isinstance(a, BatchOperand)))
        mode = getattr(self.handle, "check_numerics", 0)
        # A reduction in host pointer mode waits for its result (as rocBLAS blocks): it may run here.
        waited = brief or (self.routine.result is not None and self.host_mode)
        if mode:
            kernel = _numerics_checked(kernel, f"rocblas_{self.public_name}", CheckNumericsMode(mode),
                                       self._numerics_operands(args, triangles or {}))
        task = launch(kernel, *args, name=f"rocblas_{self.public_name}", stream=self.handle.stream,
                      flops=flops, bytes=bytes, dtype=self.precision.dtype, waited=waited or bool(mode),
                      streaming=streaming, record=recorded())
        if mode:  # rocBLAS copies its scan's findings back: the call itself returns check_numerics_fail
            task.wait()
        return task

    def _ilp64_limits(self) -> None:
        """invalid_size for the ``_64`` sizes rocBLAS's 64-bit launchers refuse once the argument
        checks passed ("sizes exceeding practical memory", src64/*_kernels_64.cpp)."""
        name = self.routine.name
        sizes: tuple[str, ...] = ()
        limit = _I32_MAX
        if name in _ILP64_N:
            sizes = ("n",)
        elif name in ("tbmv", "tbsv", "sbmv", "hbmv"):
            sizes = ("n", "k")
        elif name == "gbmv":
            sizes = ("m", "n", "kl", "ku")
        elif name in ("trsm", "trmm"):
            sizes = ("m",) if self.enum("side", Side) is Side.left else ("n",)
            limit = _I32_MAX if name == "trsm" else 1 << 28  # (trmm: the K of its chunked reduction)
        elif name == "gemm" and self.int("k") > 0:
            sizes, limit = ("m", "n"), 16 * _I32_MAX  # (its source kernels' blocks)
        for size in sizes:
            if self.int(size) > limit:
                raise self.invalid_size(size, f"{self.int(size)} is over rocBLAS's {limit} for {self.public_name}")

    def _numerics_operands(self, args: tuple[Any, ...],
                           triangles: dict[int, tuple[bool, bool] | None]) -> dict[int, _Scanned]:
        """The arguments check-numerics scans, as rocBLAS's ``*_check_numerics``: the array operands
        (not the scalars, nor a reduction's result), a triangle's data triangle only, no banded or
        packed matrix."""
        out: dict[int, _Scanned] = {}
        for i, a in enumerate(args):
            if not isinstance(a, BatchOperand) or a.name == self.routine.result:
                continue
            part = triangles.get(id(a), (None, False))
            if part is None:
                continue
            storage = np.dtype(a.dtype)
            tiny = float(np.finfo(storage).tiny) if storage.kind in "fc" else 0.0  # (half: its own subnormals)
            fmt = self.float8.get(a.name)
            if fmt is not None:
                tiny = float8.TINY[fmt]
            out[i] = _Scanned(a.name, a.writable, part[0], tiny, fmt, a.name not in self.write_only)
        return out

    def results(self, count: int, dtype: Any) -> tuple[Any, np.ndarray | None]:
        """Where a reduction writes its ``count`` results: a host staging array in host mode
        (returned to the caller after the call), the ``result`` device pointer in device mode."""
        self._query_point(True)
        dt = np.dtype(dtype)
        name = self.routine.result
        assert name is not None
        if self.host_mode:
            out = np.zeros(count, dtype=self.precision.compute_dtype if dt == self.dtype else dt)
            self.result_host = out
            return out, out
        if self.is_null(name):
            raise self.invalid_pointer(name)
        if self.precision.storage_only and dt == self.dtype:
            return BatchOperand(self.ptr(name), dt, (), (), count, 1, writable=True, name=name,
                                compute_dtype=self.precision.compute_dtype, owner=self.values[name]), None
        return Buffer(self.ptr(name), dt, (count,), name=name, owner=self.values[name]), None

    def finish_results(self, task: Task | None, host: np.ndarray | None) -> Any:
        """Host mode: wait (rocBLAS blocks) and return the result(s); device mode: None."""
        if host is None:
            return None
        if task is not None:
            task.wait()
        host = _host_results(host, self.precision)
        user = self.values.get(self.routine.result or "")
        if isinstance(user, np.ndarray) and self.precision.storage_only:
            # a half or bfloat16 result buffer gets the storage type's bits, as C's (bfloat16: uint16)
            bits = to_bfloat16(host) if self.precision is BF16 else host.astype(np.float16)
            user.reshape(-1).view(np.uint8)[: bits.nbytes] = bits.view(np.uint8)
        elif isinstance(user, np.ndarray):  # a host result buffer given, as in C
            user.reshape(-1)[: host.size] = host
        return host[0] if self.flavour is PLAIN else host


def _size_query(c: Call) -> RocblasStatus:
    """A call during a device-memory size query: size_increased or size_unchanged, as rocBLAS.

    A routine with a :attr:`Routine.query` point first runs its body up to there:
    invalid arguments raise as outside a query, and a quick return answers size_unchanged
    (or the status the body returns).  Nothing is launched."""
    routine = c.routine
    if routine.query is not None:
        try:
            status = routine.impl(c)
        except _QueryAnswer:
            pass
        else:
            return status if isinstance(status, RocblasStatus) else RocblasStatus.size_unchanged
    need = routine.workspace(c) if routine.workspace is not None else 0
    status = c.handle.size_query(*(need if isinstance(need, tuple) else (need,)))
    assert status is not None
    return status


def _read_back(copy: Any, source: Buffer | BatchOperand, dtype: Any, name: str, stream: Any,
               count: int | None = None) -> Any:
    """The value of a device scalar (``source``, one element; a storage type's staged as ``dtype``),
    or with ``count`` the array of ``source``'s ``count`` elements (a batched call's pointers),
    copied to the host by the kernel ``copy(out, source)`` after the work before it on ``stream``; a
    plan of the call being recorded runs only while it reads the same (:func:`rocmath.plans.read_back`)."""
    source = dataclasses.replace(source, owner=None)  # (kept by a plan: no caller objects)

    def reread() -> bytes:
        out = np.empty(1 if count is None else count, dtype=dtype)
        # (Its bytes make it small: it runs on this thread when the stream is idle, not through the worker.)
        launch(copy, out, source, name=name, stream=stream, bytes=float(out.nbytes)).wait()
        return out.tobytes()

    value = reread()
    read_back(reread, value)
    values = np.frombuffer(value, dtype=dtype)
    return values[0] if count is None else values


def _host_results(host: np.ndarray, precision: Precision) -> np.ndarray:
    if precision.storage_only and host.dtype == precision.compute_dtype:
        # Half results are half values; bfloat16 ones come back as the float32 value of the
        # rounded bfloat16 (numpy has no bfloat16 type).
        return from_bfloat16(to_bfloat16(host)) if precision is BF16 else host.astype(precision.dtype)
    return host


# --- replays of identical calls ----------------------------------------------------------------


class _Plan(Plan):
    """A blas call's plan (:class:`rocmath.plans.Plan`) whose result is a reduction's host staging
    array, returned as the reduction's value."""

    __slots__ = ("precision",)

    def __init__(self, replay: Replay, args: tuple[Any, ...], handle: BlasHandle, precision: Precision,
                 result: np.ndarray | None):
        super().__init__(replay, args, handle, result)
        self.precision = precision

    def run(self, args: tuple[Any, ...]) -> Any:
        task = self.replay.run(args)
        if self.result is None:
            return None
        task.wait()
        return _host_results(self.result, self.precision)[0]


_I32_MAX = 2**31 - 1
#: Routines whose ``_64`` form refuses n > 2^31 - 1 (rocBLAS's src64 launchers).
_ILP64_N = frozenset({"trmv", "trsv", "tpmv", "tpsv", "symv", "hemv", "spmv", "hpmv", "syr", "her", "spr", "hpr",
                      "syr2", "her2", "spr2", "hpr2", "syrk", "herk", "syr2k", "her2k", "syrkx", "herkx", "gemmt"})


@dataclass(frozen=True)
class _Scanned:
    """An operand check-numerics scans: its name, whether the routine writes it (then it is
    scanned after the kernel too), its data triangle (True upper, False lower, None all), the
    smallest normal of its storage type and, for float8 codes (uint8), their format."""

    name: str
    written: bool
    upper: bool | None
    tiny: float
    float8: int | None = None
    read: bool = True  # False: an output the routine only writes (gemm_ex's D apart from C), not scanned before


def _numerics_checked(kernel: Callable[..., Any], name: str, mode: CheckNumericsMode,
                      scanned: dict[int, _Scanned]) -> Callable[..., Any]:
    """``ROCBLAS_CHECK_NUMERICS``, as rocBLAS's check_numerics_vector/matrix: every scanned operand
    before the kernel, the written ones after it, each for NaN, zero, Inf and (unless
    ``only_nan_inf``) denormals.  ``info`` prints every operand's findings on stderr, ``warn``
    those of an abnormal one, ``fail`` makes an abnormal operand fail the call
    (check_numerics_fail), before the kernel for an input."""

    def scan(views: tuple[Any, ...], after: bool) -> None:
        for i, op in scanned.items():
            v = views[i]
            if (after and not op.written) or (not after and not op.read) or not isinstance(v, np.ndarray) \
                    or not v.size:
                continue
            if op.float8 is not None:
                # rocblas_f8/bf8: 0x80 is their NaN and what isinf reports; denormals are codes below the
                # smallest normal's (rocblas_isdenorm of utility.hpp)
                v = float8.from_f8(v, op.float8)
            if v.dtype.kind not in "fc":
                continue
            if op.upper is not None and v.ndim >= 2:
                rows, cols = v.shape[-2:]
                v = v[..., np.triu(np.ones((rows, cols), bool)) if op.upper else np.tril(np.ones((rows, cols), bool))]
            parts = (v.real, v.imag) if v.dtype.kind == "c" else (v,)
            nan = any(bool(np.isnan(p).any()) for p in parts)
            inf = nan if op.float8 is not None else any(bool(np.isinf(p).any()) for p in parts)
            zero = bool((v == 0).any())
            denorm = any(bool(((p != 0) & (np.abs(p) < op.tiny)).any()) for p in parts)
            abnormal = nan or inf or (denorm and not mode & CheckNumericsMode.only_nan_inf)
            if mode & CheckNumericsMode.info or (abnormal and mode & CheckNumericsMode.warn):
                sys.stderr.write(f"Function name:\t{name} :- {'Output' if after else 'Input'} :\t has_NaN {int(nan)}"
                                 f" has_zero {int(zero)} has_Inf {int(inf)} has_denorm {int(denorm)}\n")
            if abnormal and mode & CheckNumericsMode.fail:
                what = ", ".join(w for w, f in (("NaN", nan), ("Inf", inf), ("denormal", denorm)) if f)
                raise RocblasCheckNumericsFailError(f"{name}: {what} in {'output' if after else 'input'} '{op.name}'")

    def checked(*views: Any) -> None:
        scan(views, False)
        kernel(*views)
        scan(views, True)

    return checked


def _round_to(storage: np.dtype[Any], value: Any, compute: np.dtype[Any]) -> Any:
    """A value rounded to a storage type and widened back to its compute type."""
    if storage == BF16.dtype:
        return from_bfloat16(to_bfloat16(value)).astype(compute)
    return np.asarray(value).astype(storage).astype(compute)[()]


def _copy_out(dst: np.ndarray, src: np.ndarray) -> None:
    dst[...] = src


def _host_scalar(value: Any, dtype: np.dtype[Any], name: str, index: int) -> Any:
    if isinstance(value, np.ndarray) and value.size >= 1:
        value = value.reshape(-1)[0]
    if isinstance(value, (rocmath.DeviceArray,)) or (
            isinstance(value, (int, np.integer)) and not isinstance(value, bool) and _looks_like_pointer(int(value))):
        raise RocblasInvalidPointerError(
            "a device pointer was given in host pointer mode; pass the value, or set device pointer mode",
            arg=name, index=index)
    try:
        return dtype.type(value)
    except (TypeError, ValueError):
        raise RocblasInvalidPointerError(f"expected a number, got {type(value).__name__}", arg=name,
                                         index=index) from None


def _looks_like_pointer(value: int) -> bool:
    from rocmath.memory import address_space

    return value >= 1 << 44 and address_space.find(value) is not None


def _log(handle: BlasHandle, fname: str, names: tuple[str, ...], values: dict[str, Any], ilp64: bool) -> None:
    if handle.layer_mode & LayerMode.log_trace:
        from ._benchline import trace_fields  # imported on first use: only logging handles need it

        # As rocBLAS's log_trace: each argument in its place (a missing pointer prints as 0), then the
        # handle's atomics mode.
        trace(handle, f"rocblas_{fname}{'_64' if ilp64 else ''}", *trace_fields(handle, fname, names, values))
    if handle.layer_mode & LayerMode.log_bench:
        from ._benchline import bench_line

        handle.logger.bench(bench_line(handle, fname, names, values, ilp64=ilp64))


_ILP64_DOC = " ILP64: sizes, increments, leading dimensions and batch_count are int64_t."


def bind(routine: Routine, precision: Precision, flavour: Flavour = PLAIN, *, prefix: str | None = None,
         summary: str | None = None, ilp64: bool = False) -> Callable[..., Any]:
    """Make the public function for one (routine, precision, flavour).

    ``prefix`` overrides the precision letter for mixed-precision names (``cs``, ``zd``,
    ``is``...).  ``ilp64``: the ``_64`` function of rocBLAS's ILP64 API (``saxpy_64``), the same
    routine with ``int64_t`` sizes and amax/amin results; its logs name it ``rocblas_saxpy_64``
    and its bench lines carry ``--api 1``, as rocBLAS's.
    """
    names = routine.signature(flavour)
    fname = f"{prefix if prefix is not None else precision.letter}{routine.name}{flavour.value}"
    public = f"{fname}_64" if ilp64 else fname
    optional = set(routine.optional) | ({routine.result} if routine.result else set())

    plannable = flavour is PLAIN or routine.result is None  # batched results come back as arrays

    def entry(*args: Any, **kwargs: Any) -> Any:
        key, plan = find_plan(public, args) if not kwargs else (None, None)
        if plan is not None:
            return plan.run(args)
        values = bind_arguments(public, names, args, kwargs, optional)
        handle = check_handle(values["handle"])
        if handle.is_device_memory_size_query():
            return _size_query(Call(fname, routine, precision, flavour, names, values, ilp64))
        if handle.layer_mode:
            _log(handle, fname, names, values, ilp64)
            if handle.layer_mode & LayerMode.log_profile:
                from ._benchline import bench_line

                try:
                    problem = bench_line(handle, fname, names, values, ilp64=ilp64)
                except Exception:  # an argument no command line can say (invalid calls are logged too)
                    problem = f"rocblas_{public} (arguments not expressible as a command)"
                with profiling(handle.profile_table(), (f"rocblas_{public}", problem)):
                    return routine.impl(Call(fname, routine, precision, flavour, names, values, ilp64))
        c = Call(fname, routine, precision, flavour, names, values, ilp64)
        # (Device pointer mode replays too: its scalars are views the kernel reads when it runs, a replay's
        # as a first call's; a call that reads one back at the call (read_scalar) replays while it reads the same.)
        if not plannable or handle.check_numerics or handle.layer_mode:
            key = None

        def plan(replay: Replay, out: Any) -> _Plan | None:
            if routine.result is not None and values.get(routine.result) is not None and c.host_mode:
                return None  # a host result buffer given: the call copies into it, a replay would not
            return _Plan(replay, args, handle, precision, c.result_host if routine.result else None)

        return planned_call(handle, key, lambda: routine.impl(c), plan)

    entry.__name__ = entry.__qualname__ = public
    entry.__module__ = "rocmath.blas"
    # Only trailing optional parameters get a default in the signature (Python's rule); the
    # others may still be left out by keyword or passed as None.
    trailing = len(names)
    while trailing > 0 and names[trailing - 1] in optional:
        trailing -= 1
    params = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                default=None if i >= trailing else inspect.Parameter.empty)
              for i, n in enumerate(names)]
    entry.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    kind = {PLAIN: "", BATCHED: " Batched: arrays are device arrays of device pointers, one per entry.",
            STRIDED: " Strided batched: each array is followed by the stride between entries."}[flavour]
    entry.__doc__ = (f"rocblas_{public}({', '.join(names)})\n\n"
                     f"{summary or routine.summary}{kind}{_ILP64_DOC if ilp64 else ''}\n\n"
                     f"Precision {precision.datatype}. Raises the rocBLAS status exceptions of "
                     f"rocmath.errors in rocBLAS's check order; see rocmath.blas for the conventions.")
    return entry


def public_names(namespace: dict[str, Any]) -> list[str]:
    """The bound rocBLAS names of a module's namespace (what its ``__all__`` lists)."""
    return sorted(n for n, v in namespace.items() if getattr(v, "__module__", None) == "rocmath.blas"
                  and getattr(v, "__name__", None) == n)
