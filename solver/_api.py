"""How a rocSOLVER routine is written once and bound to its s/d/c/z x plain/batched/strided names.

This extends :mod:`rocmath.blas._api` (the same :class:`~rocmath.blas._api.Call`
helpers, flavours and one-binding-line-per-name style) with what rocSOLVER does
differently:

- names are ``rocsolver_<p><name><flavour>``;
- only *matrices* become pointer arrays in ``_batched``; the other arrays (ipiv,
  tau, D, E...: :attr:`SolverRoutine.vectors`) stay plain device arrays followed by
  their stride (``strideP``...) in *both* batched flavours; a matrix gets its
  ``strideA`` after its leading dimension in ``_strided_batched`` only;
- ``info`` is a device int32 array, one value per batch entry;
- the ILP64 API (``bind(..., ilp64=True)``, the ``_64`` names): ``int64_t`` sizes and
  ``batch_count``, and ipiv/info *device arrays* of int64 (:attr:`SolverRoutine.int_vectors`).
  The kernels are the LP64 ones, run on int32 copies staged in the workspace after the
  kernels' own part (int64 pivots read are checked, then narrowed; the int32 results
  widened into the caller's int64 arrays), inside the one launched task.  rocSOLVER's
  ``_64`` functions share the LP64 ``*_impl`` (``ROCSOLVER_ENTER_TOP("getrf", ...)``,
  library/src/lapack/roclapack_getrf.cpp): they log exactly as their LP64 twin does (trace,
  bench line, profile), and so do these;
- the check order (rocSOLVER's ``*_argCheck``): handle -> enum values
  (invalid_value) -> sizes (invalid_size) -> *a device-memory size query stops here*
  and reports the workspace -> null pointers, only where the sizes need them
  (invalid_pointer) -> quick return -> launch.  A routine therefore has two phases:
  :attr:`SolverRoutine.check` (enums and sizes; returns the problem's dimensions,
  kept as ``Call.dims``) and ``impl`` (pointers, quick return, launch), with
  ``workspace`` (bytes, from ``Call.dims``) in between;
- logging follows ``ROCSOLVER_LAYER`` (1 trace, 2 bench), written before the
  handle is checked, as rocSOLVER's ``ROCSOLVER_ENTER_TOP`` does; bit 4 profiles
  the calls that pass their checks: calls and device time per distinct problem (its
  bench command), written to ``ROCSOLVER_LOG_PROFILE_PATH`` (or stderr) by
  :func:`log_flush_profile` or at exit.  Between ``rocsolver_log_begin`` and
  ``rocsolver_log_end`` (:mod:`rocmath.solver.auxiliary`) a :class:`LogSession` governs
  instead, as rocSOLVER's logger: layers, max levels and log files read once at
  ``log_begin`` (and changed by ``log_set_*``), its own profile table written at
  ``log_end``; a routine called from inside another (on the same handle) is a nested
  entry, traced (indented) and profiled only down to the max levels, never bench-logged.

Numerical failure is data: kernels write ``info`` and never raise.
"""

from __future__ import annotations

import atexit
import contextlib
import inspect
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

import rocmath
from rocmath.arguments import bind_arguments
from rocmath.batch import BatchOperand
from rocmath.blas._api import BATCHED, PLAIN, STRIDED, Call, Flavour, Routine
from rocmath.blas._handle import check_handle
from rocmath.errors import MemoryAccessFault, RocblasStatus
from rocmath.handle import LayerMode
from rocmath.launch import Buffer, launch
from rocmath.log import Logger, ProfileTable, profiling
from rocmath.plans import Plan, find_plan, planned_call, recorded
from rocmath.precision import Precision
from rocmath.stream import Task

from ._types import ENUM_ARGUMENTS
from ._workspace import rounded

__all__ = ["BATCHED", "PLAIN", "STRIDED", "Flavour", "IntVector", "LogSession", "SolverCall", "SolverRoutine", "bind",
           "log_flush_profile", "log_write_profile", "profile_table", "public_names"]

INFO_DTYPE = np.dtype(np.int32)  # rocblas_int
INFO64_DTYPE = np.dtype(np.int64)  # int64_t, of the _64 functions
_INT32 = np.iinfo(np.int32)


@dataclass(frozen=True)
class IntVector:
    """An integer vector among a routine's :attr:`~SolverRoutine.vectors` (getrf's and getrs's
    ``ipiv``): ``rocblas_int`` (int32) in the LP64 functions, ``int64_t`` in the ``_64`` ones.

    Attributes
    ----------
    length
        Its elements per batch entry, from ``Call.dims``: the size of its int32 staging copy
        in a ``_64`` call.
    check
        For a vector the kernel reads: ``check(values, dims)`` raises what the LP64 kernel
        raises for values it must not use (getrs: a pivot outside ``1..n`` is a
        MemoryAccessFault), run on the caller's int64 values before they are narrowed, so
        that none is wrapped into range.
    """

    length: Callable[[Any], int]
    check: Callable[[np.ndarray, Any], None] | None = None


@dataclass(frozen=True)
class SolverRoutine(Routine):
    """A rocSOLVER routine, written once.

    Beside :class:`~rocmath.blas._api.Routine`'s fields (``arrays`` lists the
    *matrices*, each with its leading dimension; ``impl`` is the second phase:
    pointer checks, quick return and launch; ``workspace`` the bytes of workspace
    taken from the handle, computed from ``Call.dims``):

    Attributes
    ----------
    check
        The first phase, enums then sizes in rocSOLVER's order; returns the
        dimensions the other phases use (stored as ``Call.dims``).
    vectors
        Non-matrix array -> its stride parameter (``{"ipiv": "strideP"}``), present
        in both batched flavours right after the array.
    pointers
        The other pointer parameters (``info``...): left out of bench log lines.
    int_vectors
        The integer ones among ``vectors`` (``ipiv`` of the LU routines; ``info`` is one
        by its name): 64-bit in the ``_64`` functions.
    """

    check: Callable[[SolverCall], Any] | None = None
    vectors: dict[str, str] = field(default_factory=dict)
    pointers: tuple[str, ...] = ("info",)
    int_vectors: dict[str, IntVector] = field(default_factory=dict)

    def signature(self, flavour: Flavour) -> tuple[str, ...]:
        """The C parameter names of one flavour, handle first."""
        names = list(self.params)
        if flavour is STRIDED:
            for matrix, ld in self.arrays.items():
                names.insert(names.index(ld) + 1, self.matrix_stride(matrix))
        if flavour is not PLAIN:
            for vector, stride in self.vectors.items():
                names.insert(names.index(vector) + 1, stride)
            names.append("batch_count")
        return ("handle", *names)

    def matrix_stride(self, matrix: str) -> str:
        """The stride parameter of a matrix (``strideA``)."""
        return self.stride_names.get(matrix, f"stride{matrix}")


class SolverCall(Call):
    """One call of a bound rocSOLVER routine: arguments and the helpers its phases use.

    The helpers raise rocBLAS status exceptions naming the argument and its position
    in the C prototype, so routine bodies read like rocSOLVER's ``*_argCheck``.
    """

    routine: SolverRoutine

    def __init__(self, fname: str, routine: SolverRoutine, precision: Precision, flavour: Flavour,
                 names: tuple[str, ...], values: dict[str, Any], ilp64: bool = False):
        # ``fname`` is the LP64 name in both APIs (what rocSOLVER logs); ilp64: a ``_64`` function,
        # whose integers (Call.int) are int64_t and whose ipiv/info are int64 device arrays.
        super().__init__(fname, routine, precision, flavour, names, values, ilp64=ilp64)
        self.routine = routine
        self.dims: Any = None
        self._staging_ptr = 0  # ILP64: where the int32 copies of ipiv/info start, once the workspace is taken

    @property
    def int_dtype(self) -> np.dtype[Any]:
        """The integer device arrays' element type (ipiv, info): int32, int64 in a ``_64`` call."""
        return INFO64_DTYPE if self.ilp64 else INFO_DTYPE

    # -- argument checks ------------------------------------------------------------------------

    def sizes(self, *names: str) -> list[int]:
        """The integer arguments ``names``, each >= 0 (invalid_size naming the first that is
        not); ``batch_count`` of a plain call is 1."""
        out = []
        for name in names:
            if name == "batch_count":
                out.append(self.batch_count)
                continue
            value = self.int(name)
            if value < 0:
                raise self.invalid_size(name, f"must be non-negative, got {value}")
            out.append(value)
        return out

    def lds(self, *pairs: tuple[str, int]) -> None:
        """Each leading dimension at least the rows it spans (rocSOLVER: ``lda < m`` is
        invalid_size; ``lda == 0`` is fine for an empty matrix)."""
        for name, rows in pairs:
            ld = self.int(name)
            if ld < rows:
                raise self.invalid_size(name, f"must be >= {rows} (the rows it spans), got {ld}")

    def require(self, *names: str, when: bool = True) -> None:
        """invalid_pointer for the first null among ``names``, if ``when`` (rocSOLVER checks a
        pointer only where the sizes make it necessary)."""
        if not when:
            return
        for name in names:
            if self.is_null(name):
                raise self.invalid_pointer(name)

    # -- operands -------------------------------------------------------------------------------

    def stride(self, array: str) -> int:
        """Elements between batch entries: a matrix's ``strideA`` (strided flavour), a vector's
        ``strideP``... (both batched flavours); 0 otherwise."""
        if array in self.routine.vectors:
            return 0 if self.flavour is PLAIN else self.int(self.routine.vectors[array])
        if self.flavour is not STRIDED:
            return 0
        return self.int(self.routine.matrix_stride(array))

    def vector(self, name: str, n: int, inc: int = 1, *, writable: bool = False, dtype: Any = None) -> BatchOperand:
        """A vector argument of ``n`` elements.  The routine's :attr:`~SolverRoutine.vectors`
        (ipiv, tau...) are plain device arrays in every flavour, entries ``stride`` apart;
        other vectors follow rocBLAS (pointer arrays in ``_batched``)."""
        if name not in self.routine.vectors:
            return super().vector(name, n, inc, writable=writable, dtype=dtype)
        return BatchOperand(self.ptr(name), np.dtype(dtype or self.dtype), (n,), (inc,), self.batch_count,
                            self.stride(name), False, 0, writable, name, None, self.values[name])

    def array(self, name: str, count: int, dtype: Any) -> Buffer:
        """A plain device array argument of ``count`` elements (laswp's ipiv, info...)."""
        return Buffer(self.ptr(name), np.dtype(dtype), (count,), name=name, owner=self.values[name])

    def info(self) -> Buffer:
        """The ``info`` output: ``batch_count`` int32 (``_64``: int64) values on the device."""
        return self.array("info", self.batch_count, self.int_dtype)

    def overlapping(self, *extents: tuple[str, int]) -> bool:
        """Whether the batch entries of any written strided argument overlap (``(name,
        elements one entry spans)`` pairs), e.g. ``strideP = 0``.  Such entries are then
        processed in entry order, so the result is deterministic: the last entry's
        values win, as the last gathered pointer-array entry does."""
        if self.batch_count <= 1:
            return False
        for name, extent in extents:
            if self.flavour is BATCHED and name not in self.routine.vectors:
                continue  # pointer-array entries are gathered into separate staging
            if extent and abs(self.stride(name)) < extent:
                return True
        return False

    # -- workspace and launching ----------------------------------------------------------------

    def _staging(self) -> tuple[dict[str, tuple[int, int]], int]:
        """A ``_64`` call's int32 copies of its integer arrays: ``{name: (byte offset, elements per
        entry)}`` and their bytes, after the kernels' workspace.  Only a call whose kernels take
        workspace launches them (the kernels' workspace is zero exactly for the problems that
        return early: an empty problem needs none, as in rocSOLVER)."""
        if not self.ilp64:
            return {}, 0
        batch = self.batch_count
        parts = [(name, iv.length(self.dims)) for name, iv in self.routine.int_vectors.items()]
        if "info" in self.names:
            parts.append(("info", 1))
        out, off = {}, 0
        for name, per in parts:
            out[name] = (off, per)
            off += rounded(INFO_DTYPE.itemsize * batch * per)
        return out, off

    def _kernel_workspace(self) -> int:
        return self.routine.workspace(self) if self.routine.workspace is not None else 0

    def workspace_bytes(self) -> int:
        """The bytes of workspace the call takes (what a size query reports): the kernels'
        (``routine.workspace``) and, in a ``_64`` call that launches them, the int32 copies of its
        ipiv/info after them (rocSOLVER's ``_64`` workspace differs from its LP64 twin's too: its
        integer scratch is ``sizeof(I)`` wide)."""
        base = self._kernel_workspace()
        extra = self._staging()[1] if base else 0
        return rounded(base) + extra if extra else base

    def workspace_buffer(self, dtype: Any = np.uint8) -> Buffer:
        """The routine's workspace (``routine.workspace`` bytes, from ``dims``) as elements of
        ``dtype`` (bytes by default: the kernels carve their scratch out of it), taken from the
        handle as rocSOLVER does: a user workspace that is too small raises memory_error, so a
        body takes it before it launches anything (after its pointer checks and quick
        returns, which need none).  A ``_64`` call takes its staging too (:meth:`workspace_bytes`)."""
        dt = np.dtype(dtype)
        need = self._kernel_workspace()
        ptr = self.handle.workspace(self.workspace_bytes())
        self._staging_ptr = ptr + rounded(need) if ptr else 0
        return Buffer(ptr, dt, (need // dt.itemsize,), name="workspace")

    def launch(self, kernel: Callable[..., Any], *args: Any, flops: float = 0.0, bytes: float = 0.0) -> Task:
        """Enqueue ``kernel(*args)`` on the handle's stream, named after the rocSOLVER function.

        In a ``_64`` call the int64 ipiv/info operands are replaced by int32 copies in the
        workspace (see :meth:`_staging`): the task narrows the int64 values the kernel reads
        (checked first: :attr:`IntVector.check`, then against int32's range), runs the kernel,
        and widens what it wrote into the caller's arrays (every byte of their int64 entries,
        nothing past them).  The caller's arrays are arguments of the same launch, so they are
        checked against their allocations before anything runs, as the LP64 kernel's are."""
        name = f"rocsolver_{self.public_name}"
        plan: list[tuple[Any, ...]] = []
        callers: list[Any] = []
        kargs = list(args)
        if self.ilp64:
            layout = self._staging()[0]
            for pos, arg in enumerate(args):
                arg_name = getattr(arg, "name", None)
                if not isinstance(arg, (Buffer, BatchOperand)) or arg.dtype != INFO64_DTYPE or arg_name not in layout:
                    continue
                if not self._staging_ptr:  # a body launching before it took its workspace
                    raise RuntimeError(f"{name}: '{arg_name}' is staged in the workspace, which was not taken")
                off, per = layout[arg_name]
                if isinstance(arg, BatchOperand):
                    count = arg.batch_count
                    read, serial = not arg.writable, count > 1 and abs(arg.batch_stride) < arg.shape[0]
                    shape: tuple[int, ...] = (count, per)
                    iv = self.routine.int_vectors[arg_name]
                    check = None if iv.check is None else partial(iv.check, dims=self.dims)
                else:  # info: written
                    read, serial, shape, check = False, False, arg.shape, None
                kargs[pos] = Buffer(self._staging_ptr + off, INFO_DTYPE, shape, name=f"{arg_name} (int32 copy)")
                plan.append((pos, len(callers), read, serial, check, arg_name))
                callers.append(arg)
        if not plan:
            return launch(kernel, *args, name=name, stream=self.handle.stream, flops=flops, bytes=bytes,
                          record=recorded())
        return launch(partial(_staged, kernel, len(kargs), tuple(plan)), *kargs, *callers, name=name,
                      stream=self.handle.stream, flops=flops, bytes=bytes, record=recorded())

    def nothing_to_do(self, batch: int, *sizes: int) -> bool:
        """rocSOLVER's quick return (after the pointer checks): True when there is no batch entry, or when a
        size is 0 -- then info := 0 for every entry (:meth:`reset_info`)."""
        if batch == 0:
            return True
        if 0 in sizes:
            self.reset_info()
            return True
        return False

    def reset_info(self) -> None:
        """info := 0 for every entry (the quick return of an empty problem; all 8 bytes of each
        int64 entry in a ``_64`` call)."""
        if self.batch_count:
            info = self.info()
            launch(_zero, info, name=f"rocsolver_{self.public_name}", stream=self.handle.stream,
                   bytes=float(info.dtype.itemsize * self.batch_count), record=recorded())


def _staged(kernel: Callable[..., Any], nargs: int, plan: tuple[tuple[Any, ...], ...], *views: np.ndarray) -> None:
    """A ``_64`` call's task: ``kernel`` on the int32 copies of its ipiv/info (``plan``: kernel
    argument position, caller array, read, overlapping entries, check, name), narrowed from and
    widened into the caller's int64 arrays (``views[nargs:]``)."""
    args, callers = list(views[:nargs]), views[nargs:]
    for pos, j, read, _, check, name in plan:
        if read:
            _narrow(callers[j], args[pos], check, name)
    kernel(*args)
    for pos, j, read, serial, _, _ in plan:
        if not read:
            _widen(callers[j], args[pos], serial)


def _narrow(src: np.ndarray, dst: np.ndarray, check: Callable[[np.ndarray], None] | None, name: str) -> None:
    """int64 values the kernel reads -> its int32 copy: refused as the LP64 kernel refuses them
    (``check``), and never wrapped (a value outside int32's range would address memory the
    kernel cannot reach: MemoryAccessFault)."""
    if check is not None:
        check(src)
    if src.size:
        bad = (src < _INT32.min) | (src > _INT32.max)
        if bad.any():
            where = tuple(int(i) for i in np.argwhere(bad)[0])
            raise MemoryAccessFault(f"argument '{name}': element {where} is {int(src[where])}, outside the range the "
                                    "kernel indexes with (int32)")
    dst[...] = src


def _widen(dst: np.ndarray, src: np.ndarray, serial: bool) -> None:
    """The kernel's int32 results -> the caller's int64 array; entries that overlap (strideP
    smaller than an entry) in entry order, so the last one's values win, as in the LP64 call."""
    if serial:
        for b in range(src.shape[0]):
            dst[b] = src[b]
    else:
        dst[...] = src


def _zero(x: np.ndarray) -> None:
    x[...] = 0


# --- logging ------------------------------------------------------------------------------------


def layer_mode() -> LayerMode:
    """rocSOLVER's logging layers, from ``ROCSOLVER_LAYER`` (bit 1 trace, 2 bench, 4 profile)."""
    try:
        return LayerMode(int(os.environ.get("ROCSOLVER_LAYER") or "0", 0) & 7)
    except ValueError:
        return LayerMode.none


def _env_max_levels() -> int:
    """Outside a session: how deep nested entries are logged, from ``ROCSOLVER_LEVELS`` (default 1)."""
    try:
        return max(1, int(os.environ.get("ROCSOLVER_LEVELS") or "1", 0))
    except ValueError:
        return 1


def log_paths() -> dict[str, str | None]:
    """Where each kind of line goes: ``ROCSOLVER_LOG_<KIND>_PATH``, else ``ROCSOLVER_LOG_PATH``, else None
    (stderr), as rocSOLVER's ``open_log_stream`` chooses (library/src/common/rocsolver_logger.cpp)."""
    common = os.environ.get("ROCSOLVER_LOG_PATH") or None
    return {kind: os.environ.get(f"ROCSOLVER_LOG_{kind.upper()}_PATH") or common
            for kind in ("trace", "bench", "profile")}


def _env_logger() -> Logger:
    logger = Logger("rocsolver")
    logger.paths = log_paths()
    return logger


class LogSession:
    """rocSOLVER's logger between ``rocsolver_log_begin`` and ``rocsolver_log_end``
    (:mod:`rocmath.solver.auxiliary`): while one exists it, not the environment of each
    call, decides what the routines log.

    Attributes
    ----------
    layer
        The layers (trace, bench, profile bits of ``rocblas_layer_mode``).
    max_levels
        The deepest nested entry traced and profiled (the outermost routine is level 1).
    logger
        The log files, chosen at ``log_begin``.
    profile
        The session's profile table, written at ``log_end`` / ``log_write_profile`` /
        ``log_flush_profile`` (never at exit).
    """

    def __init__(self, logger: Logger) -> None:
        self.layer = LayerMode.none
        self.max_levels = 1
        self.logger = logger
        self.profile = ProfileTable()


#: The session begun by ``rocsolver_log_begin`` (None: none, the environment of each call decides).
_session: LogSession | None = None
#: Serializes the session's begin, end and settings (rocsolver_logger's mutex).
session_lock = threading.Lock()

#: Logged routine entries in progress, per handle (rocsolver_logger's call stack, keyed by handle).
_stack_lock = threading.Lock()
_stacks: dict[int, int] = {}


def current_session() -> LogSession | None:
    return _session


def set_session(session: LogSession | None) -> None:
    """Install or remove the session (the caller holds :data:`session_lock`)."""
    global _session
    _session = session


def entries_in_progress() -> bool:
    """Whether a logged routine entry has not returned yet (``rocsolver_log_end`` refuses to end then)."""
    with _stack_lock:
        return bool(_stacks)


def _letter(name: str, value: Any) -> str:
    """An enum argument as rocsolver-bench's letter (a value outside the enum as it was given)."""
    cls = ENUM_ARGUMENTS.get(name)
    if cls is not None and not isinstance(value, str):
        try:
            return str(cls(int(value)).letter)  # type: ignore[attr-defined]
        except (TypeError, ValueError):
            pass
    return str(value)


def _bench_line(fname: str, routine: SolverRoutine, names: tuple[str, ...], values: dict[str, Any]) -> str:
    """The ``rocmath-bench solver`` command of a call: rocsolver-bench's flags, pointers left out."""
    skip = set(routine.arrays) | set(routine.vectors) | set(routine.pointers)
    flags = [f"{'-' if len(name) == 1 else '--'}{name} {_letter(name, values[name])}" for name in names[1:]
             if name not in skip]
    return f"rocmath-bench solver -f {fname[1:]} -r {fname[0]} " + " ".join(flags)


def _log(logger: Logger, layer: LayerMode, level: int, max_levels: int, fname: str, routine: SolverRoutine,
         names: tuple[str, ...], values: dict[str, Any]) -> None:
    """The lines of one entry at ``level`` (1: the outermost routine): trace down to ``max_levels``,
    indented 4 spaces a nesting level as rocSOLVER's trace tree; bench for the outermost only (rocSOLVER
    writes it in ``ROCSOLVER_ENTER_TOP``)."""
    if layer & LayerMode.log_trace and level <= max_levels:
        # Every argument keeps its place (a missing one prints as 0, a null pointer).
        logger.trace(" " * (4 * (level - 1)) + f"rocsolver_{fname}",
                     *(0 if values[n] is None else values[n] for n in names[1:]))
    if layer & LayerMode.log_bench and level == 1:
        # rocsolver-bench's flags, replayed by rocmath-bench's solver command.
        logger.bench(_bench_line(fname, routine, names, values))


def _logged(session: LogSession | None, layer: LayerMode, fname: str, routine: SolverRoutine,
            names: tuple[str, ...], values: dict[str, Any], run: Callable[..., Any]) -> Any:
    """A call with logging on: push its entry on its handle's stack, write its lines, run it (profiled
    down to the max levels: a deeper entry's work counts to the nearest profiled caller), pop."""
    if session is None:
        logger, max_levels = _env_logger(), _env_max_levels()
        table = profile_table() if layer & LayerMode.log_profile else None
    else:
        logger, max_levels, table = session.logger, session.max_levels, session.profile
    key = id(values["handle"])
    with _stack_lock:
        level = _stacks.get(key, 0) + 1
        _stacks[key] = level
    try:
        _log(logger, layer, level, max_levels, fname, routine, names, values)
        profiled = layer & LayerMode.log_profile and level <= max_levels
        return run(values, table if profiled else None)
    finally:
        with _stack_lock:
            left = _stacks[key] - 1
            if left:
                _stacks[key] = left
            else:
                del _stacks[key]


_profile_lock = threading.Lock()
_profile: ProfileTable | None = None


def profile_table() -> ProfileTable:
    """The table of ``ROCSOLVER_LAYER`` bit 4 (one per process, as rocSOLVER's profile log): calls and
    device time per distinct problem, written by :func:`log_flush_profile` or at exit."""
    global _profile
    with _profile_lock:
        if _profile is None:
            _profile = ProfileTable()
            atexit.register(log_flush_profile)
        return _profile


def log_write_profile() -> None:
    """``rocsolver_log_write_profile``: write the profile table (to ``ROCSOLVER_LOG_PROFILE_PATH`` or stderr)
    once the work it counts has finished, and keep it."""
    with _profile_lock:
        table = _profile
    if table is None:
        return
    rocmath.device_synchronize()  # the device time of launched work is added when it runs
    logger = _env_logger()
    for line in table.lines():
        logger.write("profile", line)


def log_flush_profile() -> None:
    """``rocsolver_log_flush_profile``: write the profile table, then empty it."""
    with _profile_lock:
        table = _profile
    if table is None:
        return
    with contextlib.suppress(Exception):  # pending errors belong to the next synchronize
        rocmath.device_synchronize()
    table.flush(_env_logger())


# --- binding ------------------------------------------------------------------------------------


def bind(routine: SolverRoutine, precision: Precision, flavour: Flavour = PLAIN, *,
         ilp64: bool = False) -> Callable[..., Any]:
    """Make the public function ``<p><name><flavour>`` (``ilp64``: ``<p><name><flavour>_64``,
    rocSOLVER's ILP64 API) for one (routine, precision, flavour).

    It runs: argument binding; logging (``ROCSOLVER_LAYER``); the handle check;
    ``routine.check`` (enums, sizes); during a device-memory size query, the report
    of the workspace bytes (``size_increased``/``size_unchanged`` is returned);
    otherwise ``routine.impl`` (pointers, quick return, launch), which returns None.  A call
    of one launch that comes again with the same arguments on the same handle state, without
    logging, runs its checked launch again (:mod:`rocmath.plans`).

    A ``_64`` function takes ``int64_t`` sizes (an LP64 one refuses a size outside
    ``rocblas_int``, naming it) and int64 ipiv/info device arrays; it logs as its LP64
    twin, as rocSOLVER's do (the two share one ``*_impl``, whose ``ROCSOLVER_ENTER_TOP``
    names the routine without ``_64``).
    """
    names = routine.signature(flavour)
    fname = f"{precision.letter}{routine.name}{flavour.value}"
    public = f"{fname}_64" if ilp64 else fname
    optional = set(routine.optional)

    def run(values: dict[str, Any], table: ProfileTable | None) -> Any:
        handle = check_handle(values["handle"])
        c = SolverCall(fname, routine, precision, flavour, names, values, ilp64=ilp64)
        if routine.check is not None:
            c.dims = routine.check(c)
        if handle.is_device_memory_size_query():
            need = c.workspace_bytes()
            status = handle.size_query(need) if need else RocblasStatus.size_unchanged
            return status
        if table is not None:  # checked calls only: a problem is what ran
            with profiling(table, (f"rocsolver_{fname}", _bench_line(fname, routine, names, values))):
                return routine.impl(c)
        return routine.impl(c)

    def entry(*args: Any, **kwargs: Any) -> Any:
        session = _session
        layer = layer_mode() if session is None else session.layer
        key = None
        if not layer and not kwargs:  # (logging is not handle state: asked before a plan may run)
            key, plan = find_plan(public, args)
            if plan is not None:
                plan.run(args)
                return None
        values = bind_arguments(public, names, args, kwargs, optional)
        if layer:
            return _logged(session, layer, fname, routine, names, values, run)
        if key is None:
            return run(values, None)
        handle = args[0]  # (find_plan found its plans: a handle; run checks it is a live one)
        return planned_call(handle, None if handle.is_device_memory_size_query() else key,
                            lambda: run(values, None),
                            lambda replay, out: Plan(replay, args, handle) if out is None else None)

    entry.__name__ = entry.__qualname__ = public
    entry.__module__ = "rocmath.solver"
    # What rocmath-bench's solver command needs to build a call's operands.
    entry.routine, entry.precision, entry.flavour = routine, precision, flavour  # type: ignore[attr-defined]
    entry.ilp64 = ilp64  # type: ignore[attr-defined]
    entry.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in names])
    kind = {PLAIN: "",
            BATCHED: " Batched: matrices are device arrays of device pointers, one per entry; the other arrays "
                     "are device arrays with a stride between entries.",
            STRIDED: " Strided batched: each array is followed by the stride between entries."}[flavour]
    ints = (" ILP64: int64_t sizes; ipiv and info are int64 device arrays; logged as rocsolver_"
            f"{fname}, as rocSOLVER does." if ilp64 else "")
    entry.__doc__ = (f"rocsolver_{public}({', '.join(names)})\n\n"
                     f"{routine.summary}{kind}{ints}\n\n"
                     f"Precision {precision.datatype}. Raises the rocBLAS status exceptions of rocmath.errors "
                     f"in rocSOLVER's check order; numerical failure is reported in info, never raised. "
                     f"See rocmath.solver for the conventions.")
    return entry


def public_names(namespace: dict[str, Any]) -> list[str]:
    """The bound rocSOLVER names of a module's namespace (what its ``__all__`` lists)."""
    return sorted(n for n, v in namespace.items() if getattr(v, "__module__", None) == "rocmath.solver"
                  and getattr(v, "__name__", None) == n)
