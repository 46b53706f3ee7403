"""The rocBLAS handle and the auxiliary functions (rocblas-auxiliary.h)."""

from __future__ import annotations

import contextlib
import os
import sys
import weakref
from typing import Any, NoReturn

import numpy as np

import rocmath
from rocmath import memory as _memory
from rocmath.errors import (
    RocblasInvalidHandleError,
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasStatus,
)
from rocmath.handle import WORKSPACE_ALIGN, AtomicsMode, Handle, LayerMode, PointerMode, c_strtol
from rocmath.log import Logger, close_logs, ostream_text
from rocmath.memory import address_space
from rocmath.stream import Stream

from ._types import CheckNumericsMode, MathMode, PerformanceMetric, c_integer

__all__ = [
    "BlasHandle", "abort", "create_handle", "destroy_handle", "get_atomics_mode", "get_device_memory_size",
    "get_math_mode", "get_matrix", "get_matrix_64", "get_matrix_async", "get_matrix_async_64", "get_performance_metric",
    "get_pointer_mode", "get_stream", "get_vector", "get_vector_64", "get_vector_async", "get_vector_async_64",
    "get_version_string", "get_version_string_size", "initialize", "is_device_memory_size_query",
    "is_managing_device_memory", "is_user_managing_device_memory", "pointer_to_mode", "set_atomics_mode",
    "set_device_memory_size", "set_math_mode", "set_matrix", "set_matrix_64", "set_matrix_async",
    "set_matrix_async_64", "set_performance_metric", "set_pointer_mode", "set_stream", "set_vector",
    "set_vector_64", "set_vector_async", "set_vector_async_64", "set_workspace", "start_device_memory_size_query",
    "status_to_string", "stop_device_memory_size_query",
]


class BlasHandle(Handle):
    """A ``rocblas_handle``: stream, pointer mode, workspace, atomics, logging layers.

    ``ROCBLAS_LAYER`` sets the logging layers, ``ROCBLAS_DEFAULT_ATOMICS_MODE`` the atomics
    mode, ``ROCBLAS_CHECK_NUMERICS`` the check-numerics mode and
    ``ROCBLAS_DEVICE_MEMORY_SIZE`` a preallocated workspace size, as in rocBLAS: numbers are
    read as C's ``strtol``/``strtoul`` read them (``"02"`` and ``"2junk"`` are 2), and any
    nonzero atomics value allows atomics.  Log lines go to ``ROCBLAS_LOG_TRACE_PATH``,
    ``ROCBLAS_LOG_BENCH_PATH``, ``ROCBLAS_LOG_PROFILE_PATH``, each else ``ROCBLAS_LOG_PATH``,
    else stderr; a file is started anew the first time the process opens it.
    """

    library = "rocblas"
    layer_env = "ROCBLAS_LAYER"

    def __init__(self, device: int | None = None, stream: Any = None):
        super().__init__(device, stream)
        self._fixed: weakref.finalize | None = None  # frees what set_device_memory_size allocated
        self._plans: dict[Any, Any] = {}  # replays of checked calls (blas._api._Plan)
        # handle.cpp init_check_numerics: strtol, no validation (unknown bits are dropped here)
        self.check_numerics = CheckNumericsMode(c_strtol(os.environ.get("ROCBLAS_CHECK_NUMERICS") or "") & 15)
        self.math_mode = MathMode.default_math
        self.performance_metric = PerformanceMetric.default
        # strtoul(env, nullptr, 0) (handle.cpp); a negative value, which C wraps to a huge size, is 0 here
        prealloc = max(c_strtol(os.environ.get("ROCBLAS_DEVICE_MEMORY_SIZE") or ""), 0)
        if prealloc:  # (the size as given: rocBLAS's constructor does not round it)
            self.set_device_memory_size(prealloc, align=1)

    @staticmethod
    def _env_atomics_mode(text: str | None) -> AtomicsMode:
        # handle.cpp: strtoul(...) ? allowed : not_allowed; unset keeps rocmath's default (not_allowed)
        return AtomicsMode.not_allowed if text is None or not c_strtol(text, unsigned=True) else AtomicsMode.allowed

    @staticmethod
    def _env_layer_mode(text: str | None) -> LayerMode:
        return LayerMode(c_strtol(text or "") & 7)  # handle.cpp init_logging: strtol(str, 0, 0)

    def _make_logger(self) -> Logger:
        logger = Logger(self.library, common_env="ROCBLAS_LOG_PATH", truncate=True)
        # init_logging opens (and truncates) the stream of each layer on when the handle is made.
        logger.open(kind for kind, bit in (("trace", LayerMode.log_trace), ("bench", LayerMode.log_bench),
                                           ("profile", LayerMode.log_profile)) if self.layer_mode & bit)
        return logger

    def set_device_memory_size(self, nbytes: int, align: int = WORKSPACE_ALIGN) -> None:
        """rocBLAS's user-managed scheme: a fixed workspace of ``nbytes`` (rounded up to 64)
        that the handle allocates and owns; calls needing more fail with memory_error.
        0 goes back to rocBLAS-managed memory."""
        self.set_workspace(0, 0)
        if nbytes > 0:
            size = -(-int(nbytes) // align) * align
            ptr = _memory.malloc(size)
            super().set_workspace(ptr, size)
            self._fixed = weakref.finalize(self, _free_quietly, ptr)
            self._fixed.atexit = False  # at exit the process returns the memory

    def set_workspace(self, ptr: int, nbytes: int) -> None:
        super().set_workspace(ptr, nbytes)
        self._plans.clear()  # they may have been checked against the old workspace
        self._free_fixed()

    def destroy(self) -> None:
        super().destroy()
        self._free_fixed()

    def _free_fixed(self) -> None:
        if self._fixed is not None:
            self._fixed()  # free() waits for the work still using it
            self._fixed = None

    def __repr__(self) -> str:
        return f"<rocblas handle on {self.stream!r}, pointer mode {self.pointer_mode.name}>"


def atomics_text(mode: Any) -> str:
    """rocblas_atomics_mode_to_string: any value but not_allowed reads as allowed."""
    return "atomics_not_allowed" if int(mode) == AtomicsMode.not_allowed else "atomics_allowed"


def trace(handle: BlasHandle, function: str, *fields: Any) -> None:
    """Write a trace line if the handle's trace layer is on: ``function``, the fields (already text,
    or printed as C++'s ``std::ostream`` prints them) and, as rocBLAS's ``log_trace`` ends every line,
    the handle's atomics mode."""
    if handle.layer_mode & LayerMode.log_trace:
        handle.logger.write("trace", ",".join([function, *(f if isinstance(f, str) else ostream_text(f)
                                                            for f in fields), atomics_text(handle.atomics_mode)]))


def _enum_int(value: Any) -> Any:
    """An enum argument as rocBLAS's log prints an enum without its own ``operator<<``: its integer."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return value


def _stream_text(stream: Any) -> str:
    """A stream as ``std::ostream`` prints a ``hipStream_t``: ``0`` for the null stream, else an address
    (rocmath's streams have none: their number stands for it)."""
    ident = getattr(stream, "ident", stream)  # (None or 0: the null stream)
    if not ident:
        return "0"
    return f"0x{ident:x}" if isinstance(ident, int) else str(stream)


def _free_quietly(ptr: int) -> None:
    with contextlib.suppress(rocmath.RocmathError):  # e.g. its device was replaced by rocmath.configure
        _memory.free(ptr)


def check_handle(handle: Any) -> BlasHandle:
    """The first check of every call: a live rocBLAS handle (``invalid_handle`` otherwise)."""
    if not isinstance(handle, BlasHandle):  # (a rocSPARSE handle is no rocblas_handle either)
        raise RocblasInvalidHandleError(f"expected a handle from create_handle(), got {type(handle).__name__}",
                                        arg="handle", index=1)
    handle.check()
    return handle  # type: ignore[return-value]


# The handle functions rocblas_auxiliary.cpp traces (ROCBLAS_LAYER=1) trace here too, each as it
# does: the setters before they act (so an invalid value is traced), the getters the value read.


def create_handle(device: int | None = None) -> BlasHandle:
    """``rocblas_create_handle``: a handle bound to the current device, on its null stream."""
    h = BlasHandle(device)
    trace(h, "rocblas_create_handle")
    return h


def destroy_handle(handle: BlasHandle) -> None:
    """``rocblas_destroy_handle``."""
    h = check_handle(handle)
    trace(h, "rocblas_destroy_handle")
    h.destroy()


def set_stream(handle: BlasHandle, stream: Any) -> None:
    """``rocblas_set_stream`` (None or 0: the null stream)."""
    h = check_handle(handle)
    trace(h, "rocblas_set_stream", _stream_text(stream))
    h.set_stream(stream)


def get_stream(handle: BlasHandle) -> Stream:
    """``rocblas_get_stream``."""
    h = check_handle(handle)
    stream = h.get_stream()
    # (rocBLAS traces *stream_id before writing it, the caller's old value; the stream returned is traced)
    trace(h, "rocblas_get_stream", _stream_text(stream))
    return stream


def set_pointer_mode(handle: BlasHandle, mode: Any) -> None:
    """``rocblas_set_pointer_mode``: where alpha/beta and results live."""
    h = check_handle(handle)
    trace(h, "rocblas_set_pointer_mode", _enum_int(mode))
    h.set_pointer_mode(mode)


def get_pointer_mode(handle: BlasHandle) -> PointerMode:
    """``rocblas_get_pointer_mode``."""
    h = check_handle(handle)
    mode = h.get_pointer_mode()
    trace(h, "rocblas_get_pointer_mode", int(mode))
    return mode


def set_atomics_mode(handle: BlasHandle, mode: Any) -> None:
    """``rocblas_set_atomics_mode``; rocmath's kernels are deterministic in either mode."""
    h = check_handle(handle)
    with contextlib.suppress(TypeError, ValueError):  # (an invalid value is the setter's to report)
        trace(h, "rocblas_set_atomics_mode", atomics_text(mode))
    h.set_atomics_mode(mode)


def get_atomics_mode(handle: BlasHandle) -> AtomicsMode | int:
    """``rocblas_get_atomics_mode``."""
    h = check_handle(handle)
    mode = h.get_atomics_mode()
    trace(h, "rocblas_get_atomics_mode", atomics_text(mode))
    return mode


def set_math_mode(handle: BlasHandle, mode: Any) -> None:
    """``rocblas_set_math_mode``: unsupported modes are ignored, as rocBLAS does; xf32 is
    supported only when the current device is a gfx940, gfx941 or gfx942
    (rocblas_internal_tensile_supports_xdl_math_op)."""
    h = check_handle(handle)
    chosen = None
    with contextlib.suppress(ValueError, TypeError):
        chosen = MathMode(int(mode))
        arch = rocmath.get_device_properties().gcnArchName
        if chosen is not MathMode.default_math and not any(name in arch for name in ("gfx940", "gfx941", "gfx942")):
            chosen = None
    if chosen is None:
        trace(h, "rocblas_set_math_mode", _enum_int(mode), "is not supported")
    else:
        trace(h, "rocblas_set_math_mode", int(chosen))
        h.math_mode = chosen


def get_math_mode(handle: BlasHandle) -> MathMode:
    """``rocblas_get_math_mode``."""
    h = check_handle(handle)
    trace(h, "rocblas_get_math_mode", int(h.math_mode))
    return h.math_mode


def set_performance_metric(handle: BlasHandle, metric: Any) -> None:
    """``rocblas_set_performance_metric``: any value is stored, as rocBLAS does (handle.cpp)."""
    h = check_handle(handle)  # (the handle first, as rocBLAS)
    value = int(metric)
    h.performance_metric = PerformanceMetric(value) if value in PerformanceMetric._value2member_map_ else value


def get_performance_metric(handle: BlasHandle) -> PerformanceMetric | int:
    """``rocblas_get_performance_metric``."""
    return check_handle(handle).performance_metric


# --- workspace -----------------------------------------------------------------------------


def start_device_memory_size_query(handle: BlasHandle) -> None:
    """``rocblas_start_device_memory_size_query``."""
    check_handle(handle).start_device_memory_size_query()


def stop_device_memory_size_query(handle: BlasHandle) -> int:
    """``rocblas_stop_device_memory_size_query``: the bytes the calls since the start need."""
    return check_handle(handle).stop_device_memory_size_query()


def is_device_memory_size_query(handle: BlasHandle) -> bool:
    """``rocblas_is_device_memory_size_query``."""
    return check_handle(handle).is_device_memory_size_query()


def get_device_memory_size(handle: BlasHandle) -> int:
    """``rocblas_get_device_memory_size``."""
    return check_handle(handle).get_device_memory_size()


def set_device_memory_size(handle: BlasHandle, size: int) -> None:
    """``rocblas_set_device_memory_size``: a fixed, handle-owned workspace of ``size`` bytes
    (user-managed: ``is_managing_device_memory`` is False); 0 goes back to rocBLAS-managed."""
    check_handle(handle).set_device_memory_size(int(size))


def set_workspace(handle: BlasHandle, addr: Any, size: int) -> None:
    """``rocblas_set_workspace``: use user memory (``addr`` and ``size`` nonzero) or go back to
    rocBLAS-managed workspace."""
    h = check_handle(handle)
    h.set_workspace(_ptr(addr), int(size))


def is_managing_device_memory(handle: BlasHandle) -> bool:
    """``rocblas_is_managing_device_memory``."""
    return check_handle(handle).is_managing_device_memory()


def is_user_managing_device_memory(handle: BlasHandle) -> bool:
    """``rocblas_is_user_managing_device_memory`` (deprecated in rocBLAS): whether the handle holds
    a fixed workspace from ``set_device_memory_size`` (user-managed); False for rocBLAS-managed
    memory and for user-owned memory given by ``set_workspace``, as rocBLAS's handle.cpp."""
    return check_handle(handle)._fixed is not None


# --- data movement helpers ------------------------------------------------------------------


def _ptr(obj: Any) -> int:
    if obj is None:
        return 0
    if isinstance(obj, rocmath.DeviceArray):
        return obj.ptr
    return int(obj)


def _is_device(obj: Any) -> bool:
    if isinstance(obj, rocmath.DeviceArray):
        return True
    if isinstance(obj, (int, np.integer)) and not isinstance(obj, bool):
        alloc = address_space.find(int(obj))
        return alloc is not None and alloc.kind is not _memory.MemoryKind.HOST
    return False


# 1-based positions of the arguments in the C prototypes, for error reports.
_VECTOR_POS = {"n": 1, "elem_size": 2, "x": 3, "incx": 4, "y": 5, "incy": 6}
_MATRIX_POS = {"rows": 1, "cols": 2, "elem_size": 3, "a": 4, "lda": 5, "b": 6, "ldb": 7}


def _host_bytes(obj: Any, arg: str, writable: bool, index: int | None = None) -> np.ndarray:
    if obj is None:
        raise RocblasInvalidPointerError("null pointer", arg=arg, index=index)
    if isinstance(obj, (int, np.integer)) and not isinstance(obj, bool):
        alloc = address_space.find(int(obj))
        if alloc is None or alloc.kind is _memory.MemoryKind.DEVICE:
            raise RocblasInvalidPointerError("expected host memory", arg=arg, index=index)
        return alloc.bytes_view(int(obj) - alloc.ptr)
    if isinstance(obj, np.ndarray):  # its memory in storage order: a Fortran-ordered matrix is column-major
        if not (obj.flags.c_contiguous or obj.flags.f_contiguous):
            raise RocblasInvalidPointerError("host array is not contiguous", arg=arg, index=index)
        if writable and not obj.flags.writeable:
            raise RocblasInvalidPointerError("host buffer is read-only", arg=arg, index=index)
        return obj.reshape(-1, order="A").view(np.uint8)
    mv = memoryview(obj)
    if writable and mv.readonly:
        raise RocblasInvalidPointerError("host buffer is read-only", arg=arg, index=index)
    return np.frombuffer(mv.cast("B") if mv.format != "B" or mv.ndim != 1 else mv, dtype=np.uint8)


def _strided_copy(rows: int, cols: int, elem_size: int, src: Any, lds: int, dst: Any, ldd: int,
                  to_device: bool, stream: Any, wait: bool, names: tuple[str, str, str, str]) -> None:
    """Copy a ``rows x cols`` column-major block of ``elem_size``-byte elements between host
    and device (vectors are ``rows=1`` blocks with the increments as leading dimensions)."""
    from rocmath.launch import Buffer, launch

    src_name, _lds_name, dst_name, _ldd_name = names
    pos = _VECTOR_POS if src_name == "x" else _MATRIX_POS
    if rows == 0 or cols == 0:
        return
    dev, host, ld_dev, ld_host = (dst, src, ldd, lds) if to_device else (src, dst, lds, ldd)
    dev_name = dst_name if to_device else src_name
    host_name = src_name if to_device else dst_name
    if not _is_device(dev):
        raise RocblasInvalidPointerError("expected a device pointer", arg=dev_name, index=pos[dev_name])
    hbytes = _host_bytes(host, host_name, writable=not to_device, index=pos[host_name])
    need = ((cols - 1) * ld_host + rows) * elem_size
    if hbytes.nbytes < need:
        raise RocblasInvalidSizeError(f"host buffer holds {hbytes.nbytes} bytes, needs {need}", arg=host_name,
                                      index=pos[host_name])
    dtype = np.dtype((np.void, elem_size))
    hview = np.ndarray((rows, cols), dtype=dtype, buffer=hbytes, strides=(elem_size, ld_host * elem_size))
    dbuf = Buffer(_ptr(dev), dtype, (rows, cols), (elem_size, ld_dev * elem_size), name=dev_name)
    staged = hview.copy() if to_device else None

    def kernel(d: np.ndarray) -> None:
        if to_device:
            d[...] = staged
        else:
            hview[...] = d

    task = launch(kernel, dbuf, name="set_matrix" if to_device else "get_matrix",
                  stream=0 if stream is None else stream)
    if wait or not to_device:
        task.wait()


def _ints(positions: dict[str, int], bits: int, **values: Any) -> list[int]:
    return [c_integer(v, name, positions[name], bits) for name, v in values.items()]


def _null(p: Any) -> bool:
    """Whether ``p`` is a null pointer: None, or the integer 0 (a numpy integer too)."""
    return p is None or (isinstance(p, int | np.integer) and p == 0)


def _check_vector_args(n: int, elem_size: int, incx: int, incy: int, x: Any, y: Any) -> bool:
    if n == 0:  # rocBLAS's quick return comes before its size checks (rocblas_auxiliary.cpp)
        return False
    if n < 0 or incx <= 0 or incy <= 0 or elem_size <= 0:
        bad = "n" if n < 0 else "elem_size" if elem_size <= 0 else "incx" if incx <= 0 else "incy"
        raise RocblasInvalidSizeError("must be positive (n non-negative)", arg=bad, index=_VECTOR_POS[bad])
    if _null(x):
        raise RocblasInvalidPointerError("null pointer", arg="x", index=_VECTOR_POS["x"])
    if _null(y):
        raise RocblasInvalidPointerError("null pointer", arg="y", index=_VECTOR_POS["y"])
    return True


def _vector(n: Any, elem_size: Any, x: Any, incx: Any, y: Any, incy: Any, to_device: bool, stream: Any, wait: bool,
            bits: int) -> None:
    n, elem_size, incx, incy = _ints(_VECTOR_POS, bits, n=n, elem_size=elem_size, incx=incx, incy=incy)
    if _check_vector_args(n, elem_size, incx, incy, x, y):
        _strided_copy(1, n, elem_size, x, incx, y, incy, to_device, stream, wait, ("x", "incx", "y", "incy"))


def set_vector(n: int, elem_size: int, x: Any, incx: int, y: Any, incy: int) -> None:
    """``rocblas_set_vector``: host vector ``x`` to device vector ``y`` (blocking)."""
    _vector(n, elem_size, x, incx, y, incy, True, None, True, 32)


def get_vector(n: int, elem_size: int, x: Any, incx: int, y: Any, incy: int) -> None:
    """``rocblas_get_vector``: device vector ``x`` to host vector ``y`` (blocking)."""
    _vector(n, elem_size, x, incx, y, incy, False, None, True, 32)


def set_vector_async(n: int, elem_size: int, x: Any, incx: int, y: Any, incy: int, stream: Any) -> None:
    """``rocblas_set_vector_async``: ordered on ``stream``; the host data is staged at the call."""
    _vector(n, elem_size, x, incx, y, incy, True, stream, False, 32)


def get_vector_async(n: int, elem_size: int, x: Any, incx: int, y: Any, incy: int, stream: Any) -> None:
    """``rocblas_get_vector_async``: ordered on ``stream`` (returns when the host copy is written)."""
    _vector(n, elem_size, x, incx, y, incy, False, stream, True, 32)


def set_vector_64(n: int, elem_size: int, x: Any, incx: int, y: Any, incy: int) -> None:
    """``rocblas_set_vector_64``: :func:`set_vector` with int64_t sizes."""
    _vector(n, elem_size, x, incx, y, incy, True, None, True, 64)


def get_vector_64(n: int, elem_size: int, x: Any, incx: int, y: Any, incy: int) -> None:
    """``rocblas_get_vector_64``: :func:`get_vector` with int64_t sizes."""
    _vector(n, elem_size, x, incx, y, incy, False, None, True, 64)


def set_vector_async_64(n: int, elem_size: int, x: Any, incx: int, y: Any, incy: int, stream: Any) -> None:
    """``rocblas_set_vector_async_64``: :func:`set_vector_async` with int64_t sizes."""
    _vector(n, elem_size, x, incx, y, incy, True, stream, False, 64)


def get_vector_async_64(n: int, elem_size: int, x: Any, incx: int, y: Any, incy: int, stream: Any) -> None:
    """``rocblas_get_vector_async_64``: :func:`get_vector_async` with int64_t sizes."""
    _vector(n, elem_size, x, incx, y, incy, False, stream, True, 64)


def _check_matrix_args(rows: int, cols: int, elem_size: int, lda: int, ldb: int, a: Any, b: Any) -> bool:
    if rows == 0 or cols == 0:  # rocBLAS's quick return, before its size checks (even of the other size)
        return False
    if rows < 0 or cols < 0 or elem_size <= 0 or lda <= 0 or ldb <= 0 or lda < rows or ldb < rows:
        bad = ("rows" if rows < 0 else "cols" if cols < 0 else "elem_size" if elem_size <= 0
               else "lda" if lda <= 0 or lda < rows else "ldb")
        raise RocblasInvalidSizeError("invalid size", arg=bad, index=_MATRIX_POS[bad])
    if _null(a):
        raise RocblasInvalidPointerError("null pointer", arg="a", index=_MATRIX_POS["a"])
    if _null(b):
        raise RocblasInvalidPointerError("null pointer", arg="b", index=_MATRIX_POS["b"])
    return True


def _matrix(rows: Any, cols: Any, elem_size: Any, a: Any, lda: Any, b: Any, ldb: Any, to_device: bool, stream: Any,
            wait: bool, bits: int) -> None:
    rows, cols, elem_size, lda, ldb = _ints(_MATRIX_POS, bits, rows=rows, cols=cols, elem_size=elem_size, lda=lda,
                                            ldb=ldb)
    if _check_matrix_args(rows, cols, elem_size, lda, ldb, a, b):
        _strided_copy(rows, cols, elem_size, a, lda, b, ldb, to_device, stream, wait, ("a", "lda", "b", "ldb"))


def set_matrix(rows: int, cols: int, elem_size: int, a: Any, lda: int, b: Any, ldb: int) -> None:
    """``rocblas_set_matrix``: column-major host matrix ``a`` to device matrix ``b`` (blocking)."""
    _matrix(rows, cols, elem_size, a, lda, b, ldb, True, None, True, 32)


def get_matrix(rows: int, cols: int, elem_size: int, a: Any, lda: int, b: Any, ldb: int) -> None:
    """``rocblas_get_matrix``: device matrix ``a`` to column-major host matrix ``b`` (blocking)."""
    _matrix(rows, cols, elem_size, a, lda, b, ldb, False, None, True, 32)


def set_matrix_async(rows: int, cols: int, elem_size: int, a: Any, lda: int, b: Any, ldb: int, stream: Any) -> None:
    """``rocblas_set_matrix_async``."""
    _matrix(rows, cols, elem_size, a, lda, b, ldb, True, stream, False, 32)


def get_matrix_async(rows: int, cols: int, elem_size: int, a: Any, lda: int, b: Any, ldb: int, stream: Any) -> None:
    """``rocblas_get_matrix_async`` (returns when the host copy is written)."""
    _matrix(rows, cols, elem_size, a, lda, b, ldb, False, stream, True, 32)


def set_matrix_64(rows: int, cols: int, elem_size: int, a: Any, lda: int, b: Any, ldb: int) -> None:
    """``rocblas_set_matrix_64``: :func:`set_matrix` with int64_t sizes."""
    _matrix(rows, cols, elem_size, a, lda, b, ldb, True, None, True, 64)


def get_matrix_64(rows: int, cols: int, elem_size: int, a: Any, lda: int, b: Any, ldb: int) -> None:
    """``rocblas_get_matrix_64``: :func:`get_matrix` with int64_t sizes."""
    _matrix(rows, cols, elem_size, a, lda, b, ldb, False, None, True, 64)


def set_matrix_async_64(rows: int, cols: int, elem_size: int, a: Any, lda: int, b: Any, ldb: int,
                        stream: Any) -> None:
    """``rocblas_set_matrix_async_64``: :func:`set_matrix_async` with int64_t sizes."""
    _matrix(rows, cols, elem_size, a, lda, b, ldb, True, stream, False, 64)


def get_matrix_async_64(rows: int, cols: int, elem_size: int, a: Any, lda: int, b: Any, ldb: int,
                        stream: Any) -> None:
    """``rocblas_get_matrix_async_64``: :func:`get_matrix_async` with int64_t sizes."""
    _matrix(rows, cols, elem_size, a, lda, b, ldb, False, stream, True, 64)


# --- misc -------------------------------------------------------------------------------------


def status_to_string(status: Any) -> str:
    """``rocblas_status_to_string``: the enumerator name."""
    try:
        return RocblasStatus(int(status)).to_string()
    except ValueError:
        return "<undefined rocblas_status value>"


def pointer_to_mode(ptr: Any) -> PointerMode:
    """``rocblas_pointer_to_mode``: device for device (or managed) memory, host otherwise."""
    return PointerMode.device if _is_device(ptr) else PointerMode.host


def get_version_string() -> str:
    """``rocblas_get_version_string``."""
    return f"rocmath-{rocmath.__version__} (rocBLAS API 4.3 on the simulated device)"


def get_version_string_size() -> int:
    """``rocblas_get_version_string_size``: the buffer size :func:`get_version_string` needs in C,
    its terminating NUL included."""
    return len(get_version_string().encode()) + 1


def abort() -> NoReturn:
    """``rocblas_abort``: flush every log (the ``ROCBLAS_LOG_*_PATH`` files, stdout, stderr), then
    abort the process (SIGABRT), as rocBLAS's abort flushes its log streams before ``std::abort``.
    Nothing else runs: no ``atexit`` handler, no handle's profile summary, no device memory freed."""
    close_logs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # (a closed or replaced stream: nothing to flush)
            stream.flush()
    os.abort()


def initialize() -> None:
    """``rocblas_initialize``: nothing to preload (kernels compile on first use and are cached)."""
