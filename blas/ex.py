"""The rocBLAS ``_ex`` functions (types chosen at run time by ``rocblas_datatype`` arguments) and hgemm.

Every datatype argument takes a :class:`~rocmath.blas.Datatype` member or its value.  As in
rocBLAS, no datatype is validated up front: any int32 value passes through the argument
checks and quick returns, and a combination rocBLAS does not implement (an unknown value
included) is ``not_implemented`` (:class:`~rocmath.errors.RocblasNotImplementedError`) where
rocBLAS's type dispatch finds no match.  Only what no C enum can hold (a float, an int
beyond int32) is ``invalid_value``.
Each datatype is looked up in the precision table (:mod:`rocmath.precision`); int8 and
int32 are rocmath.precision's :data:`I8` and :data:`I32`.  Scalars
(alpha, beta, c, s) are values of their declared type: a half alpha given as ``0.1`` is
the half nearest 0.1.

How the work is done
    An argument of a storage type (half, bfloat16) reaches the kernel as a float32 copy
    and is rounded back into its type once, after the kernel (round to nearest even):
    everything computes in the execution (compute) type, or in float32 where that is half.
    Real and complex operands keep their kind: a complex ``x`` executed in ``f32_r``
    computes in complex64.  Where an ``_ex`` call is exactly a plain routine with typed
    operands, it runs that routine's body (Level 1's axpy, scal, dot, nrm2, rot; Level 3's
    gemm and trsm), through :class:`TypedCall`, which hands the body each argument in its
    declared storage type converted to the kernel type.

gemm_ex, gemm_batched_ex, gemm_strided_batched_ex
    ``D := alpha op(A) op(B) + beta C``; alpha and beta have the compute type.  Types
    (``a_type = b_type``, ``c_type = d_type``, ``compute_type``): f64/f64/f64, f32/f32/f32,
    f16/f16/f16, f16/f16/f32, f16/f32/f32, bf16/bf16/f32, bf16/f32/f32, i8/i32/i32,
    f32_c/f32_c/f32_c, f64_c/f64_c/f64_c.  Check order, as rocBLAS: a compute type without a
    scalar type (rocBLAS reads alpha and beta in it before anything else: only f16_r, f32_r,
    f64_r, i32_r, f32_c, f64_c have one; an unknown value neither) is ``not_implemented``;
    ``transA``, ``transB`` ``invalid_value``; negative sizes ``invalid_size``; ``ldc < m``,
    ``ldd < m``, ``lda < (transA == N ? m : k)``, ``ldb < (transB == N ? k : n)``
    ``invalid_size``; ``m == 0``, ``n == 0`` or ``batch_count == 0`` succeed; ``(k > 0 and
    no alpha)``, no beta, no ``d``: ``invalid_pointer``; a null ``c`` with ``beta != 0``, a null ``a`` or
    ``b`` with ``k > 0`` and ``alpha != 0``: ``invalid_pointer``; ``c == d`` with ``ldc !=
    ldd``: ``invalid_size``, with ``c_type != d_type``: ``invalid_value``; then the type
    combination; a pointer not aligned to its element (batched: to 8 bytes) ``invalid_size``;
    then the solution (below).  ``k == 0`` is no quick return (``D := beta C``); ``beta == 0``
    never reads ``C`` (it may be null); ``alpha == 0`` never reads ``A`` and ``B``.  Device-mode
    alpha and beta are copied back to the host first (synchronously), as rocBLAS does.

    Solutions: rocmath's simulated Tensile library has one gemm solution, index 1
    (:data:`GEMM_SOLUTIONS`), solving every combination above; rocBLAS's beta API lists it
    (``gemm_ex_get_solutions``, :mod:`rocmath.blas.beta`).  The launch picks it as rocBLAS's
    ``runContractionProblem`` does: ``algo == GemmAlgo.solution_index`` with ``solution_index >
    0`` asks for that index, which must be 1, else ``invalid_value`` naming ``solution_index``
    (but an f32_r problem under the xf32 math mode then falls back to the default solution, as
    rocBLAS retries without xf32); any other ``algo`` (rocBLAS validates none: any int), or
    ``solution_index <= 0``, takes the default, solution 1.  With
    ``GemmFlags.check_solution_index`` in ``flags`` a call whose solution is found succeeds
    without computing: D is not written.  Check-numerics scans A, B and C before the solution is
    picked, and D after a call that succeeded without computing.  Other flags change nothing
    (``flags`` is a ``uint32_t``: any int, see :func:`_c_integer`).  ``gemm_ex_64`` with a size
    or leading dimension past int32 runs rocBLAS's source kernels, which have no solutions:
    ``algo``, ``solution_index`` and ``flags`` are not looked at then.

    ``C == D`` (same pointer, leading dimension and stride) in a floating type is gemm
    itself: Level 3's gemm body runs, typed.  Otherwise ``D := C`` (when beta != 0) and
    gemm on ``D``, with the same BLAS kernel.  Half and bfloat16 are computed in float32
    and rounded once at the end (rocBLAS's high-precision-accumulate path); that includes
    f16/f16/f16 with an f16 compute type, whose alpha and beta are half values.  i8/i32/i32
    is exact, and wraps modulo 2^32 where int32 arithmetic would.

hgemm, hgemm_batched, hgemm_strided_batched
    Half A, B, C, alpha and beta: Level 3's gemm body (check order, quick returns, device
    scalars read back) on float32 copies, C rounded to half once at the end.

axpy_ex, scal_ex, dot_ex, dotc_ex, nrm2_ex, rot_ex (each also ``_batched_ex`` and ``_strided_batched_ex``)
    rocBLAS's type tables (:data:`AXPY_EX_TYPES`...); the arithmetic is Level 1's.  The order
    is rocBLAS's ("the types": the type dispatch, not_implemented for no match):

    - axpy_ex: ``n <= 0`` or ``batch_count <= 0`` succeed; no alpha: invalid_pointer; the
      types; a host alpha of 0 succeeds; a null x or y (host mode): invalid_pointer.
    - scal_ex: ``n <= 0``, ``incx <= 0`` or ``batch_count <= 0`` succeed; the types; no alpha:
      invalid_pointer; a host alpha of 1 succeeds without touching x; a null x: invalid_pointer.
    - dot_ex, dotc_ex: ``batch_count <= 0`` succeeds (nothing written); ``n <= 0`` writes 0
      whatever the types (device mode: a null result is invalid_pointer); a null x, y or
      (device) result: invalid_pointer; the types.
    - nrm2_ex: a null device result: invalid_pointer; ``n <= 0``, ``incx <= 0`` or
      ``batch_count <= 0`` write 0 whatever the types; a null x: invalid_pointer; the types.
    - rot_ex: ``n <= 0`` or ``batch_count <= 0`` succeed; a null x, y, c or s:
      invalid_pointer; the types.  A complex ``cs_type`` means a complex s and the real
      part of c (rocBLAS reads c so).

    Reductions return their result(s) in host pointer mode, as Level 1's do
    (``result``/``results`` may then be left out, or be a host array that receives them).
    Writing 0 for an empty problem zero-fills ``rocblas_sizeof_datatype(result_type)`` bytes
    per result, as rocBLAS does, for any result type: a type rocmath has a precision for
    comes back as its 0; another as those zero bytes (a ``numpy.void``: 4 bytes for f16_c,
    none for a value no ``rocblas_datatype`` has).  rot_ex of half or bfloat16 data rounds each
    product to the storage type as rocBLAS's kernel does (two halves multiply to a half:
    300 * 300 is inf), then adds in float32.  ``axpy_ex`` executed in f16 is one fused
    multiply-add in half as rocBLAS's (haxpy too): the exact result rounded once.

trsm_ex (+ batched, strided)
    trsm in ``compute_type`` (f32_r, f64_r, f32_c, f64_c, else not_implemented, checked
    first: rocBLAS switches on it before anything else).  ``invA`` (the inverses of A's
    128 x 128 diagonal blocks rocBLAS's algorithm may use) may be null; when given it is not
    read: the solve is the same BLAS trsm.

geam_ex (plain only)
    Tropical products, types all equal and f16_r, f32_r or f64_r (a compute type outside
    those is not_implemented before any other check, as rocBLAS):
    ``min_plus``: ``D[i,j] := min(beta C[i,j], min_q (alpha op(A)[i,q] + alpha op(B)[q,j]))``;
    ``plus_min``: ``D[i,j] := beta C[i,j] + sum_q min(alpha op(A)[i,q], alpha op(B)[q,j])``.
    ``transA``/``transB`` are none or transpose; ``k == 0`` gives ``D := beta C``; ``beta
    == 0`` never reads C, ``alpha == 0`` never reads A and B; ``C == D`` needs ``ldc == ldd``.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import numpy as np

from rocmath.batch import BatchOperand
from rocmath.errors import RocblasInvalidValueError, RocblasNotImplementedError
from rocmath.launch import Buffer, launch
from rocmath.precision import BF16, H, Precision
from rocmath.precision import I8 as I8  # re-exported: the precisions of i8_r and i32_r
from rocmath.precision import I32 as I32

from . import _kernels_ex2 as kx
from . import _kernels_l3 as k3
from . import level1, level3
from ._api import (
    _I32_MAX,
    _ILP64_DOC,
    BATCHED,
    PLAIN,
    STRIDED,
    Call,
    Flavour,
    Routine,
    _numerics_checked,
    _read_back,
    bind,
    public_names,
)
from ._types import CheckNumericsMode, Datatype, GeamExOperation, GemmAlgo, GemmFlags, MathMode, Operation

# --- precisions of datatypes -----------------------------------------------------------------


def precision_of(datatype: Datatype | int) -> Precision | None:
    """The precision of a ``rocblas_datatype`` (None for types rocmath has no precision for)."""
    try:
        return Precision.from_datatype(str(datatype))
    except ValueError:
        return None


def _kernel_dtype(storage: Precision, execution: Precision) -> np.dtype[Any]:
    """The dtype a kernel sees an argument of ``storage`` precision in when executing in
    ``execution``: the execution's compute type, complex for complex arguments and real for
    real ones; integer executions take each argument's own compute type."""
    if execution.compute_dtype.kind not in "fc":
        return storage.compute_dtype
    return (execution.complex if storage.is_complex else execution.real).compute_dtype


# --- shorthand for rocBLAS's type tables ------------------------------------------------------------

_h, _bf, _s, _d = Datatype.f16_r, Datatype.bf16_r, Datatype.f32_r, Datatype.f64_r
_c, _z, _i8, _i32 = Datatype.f32_c, Datatype.f64_c, Datatype.i8_r, Datatype.i32_r

#: gemm_ex: (a_type = b_type, c_type = d_type, compute_type).
GEMM_EX_TYPES = frozenset({(_d, _d, _d), (_s, _s, _s), (_h, _h, _h), (_h, _h, _s), (_h, _s, _s), (_bf, _bf, _s),
                           (_bf, _s, _s), (_i8, _i32, _i32), (_c, _c, _c), (_z, _z, _z)})
#: The gemm solutions of rocmath's simulated Tensile library: one, solving every problem in GEMM_EX_TYPES.
GEMM_SOLUTIONS = (1,)
#: Compute types rocBLAS can read gemm_ex's alpha and beta in.
GEMM_EX_SCALAR_TYPES = frozenset({_h, _s, _d, _i32, _c, _z})
#: axpy_ex: (alpha_type, x_type, y_type, execution_type).
AXPY_EX_TYPES = frozenset({(_h, _h, _h, _s), (_s, _h, _h, _s), (_bf, _bf, _bf, _s), (_s, _bf, _bf, _s),
                           (_h, _h, _h, _h), (_s, _s, _s, _s), (_d, _d, _d, _d), (_c, _c, _c, _c), (_z, _z, _z, _z)})
#: dot_ex, dotc_ex: (x_type, y_type, result_type, execution_type).
DOT_EX_TYPES = frozenset({(_h, _h, _h, _h), (_bf, _bf, _bf, _s), (_h, _h, _h, _s), (_s, _s, _s, _s),
                          (_d, _d, _d, _d), (_c, _c, _c, _c), (_z, _z, _z, _z), (_s, _s, _d, _d)})
#: nrm2_ex: (x_type, result_type, execution_type).
NRM2_EX_TYPES = frozenset({(_h, _h, _s), (_bf, _bf, _s), (_s, _s, _s), (_d, _d, _d), (_c, _s, _s), (_z, _d, _d)})
#: rot_ex: (x_type, y_type, cs_type, execution_type).
ROT_EX_TYPES = frozenset({(_bf, _bf, _bf, _s), (_h, _h, _h, _s), (_s, _s, _s, _s), (_d, _d, _d, _d),
                          (_c, _c, _c, _c), (_c, _c, _s, _c), (_z, _z, _z, _z), (_z, _z, _d, _z)})
#: scal_ex: (alpha_type, x_type, execution_type).
SCAL_EX_TYPES = frozenset({(_h, _h, _s), (_s, _h, _s), (_h, _h, _h), (_bf, _bf, _s), (_s, _bf, _s), (_s, _s, _s),
                           (_d, _d, _d), (_c, _c, _c), (_z, _z, _z), (_s, _c, _c), (_d, _z, _z)})
#: trsm_ex: compute_type.
TRSM_EX_TYPES = frozenset({_s, _d, _c, _z})
#: geam_ex: the one type of A, B, C, D and the computation.
GEAM_EX_TYPES = frozenset({_h, _s, _d})


# --- typed calls -------------------------------------------------------------------------------


class TypedCall(Call):
    """A :class:`Call` whose arguments have their own precisions, for the generic bodies.

    ``types`` maps argument names to their (storage) precisions; ``precision`` is the
    execution precision.  ``vector``, ``matrix`` and ``scalar`` give a typed argument in its
    storage type converted to :func:`_kernel_dtype` (scalars rounded to their storage type
    first), ``host_scalar``/``read_scalar`` its value so, and ``results`` the result
    argument in its own type.  ``dtype`` is the execution's kernel dtype: what a body makes
    its own scalars in.  Untyped arguments behave as in :class:`Call`.
    """

    def __init__(self, c: Call, execution: Precision, types: dict[str, Precision], *,
                 names: tuple[str, ...] | None = None, values: dict[str, Any] | None = None,
                 read: dict[str, Any] | None = None):
        super().__init__(c.fname, c.routine, execution, c.flavour, c.names if names is None else names,
                         c.values if values is None else values, c.ilp64)
        self.types = types
        self.read = read or {}  # scalars this call's routine already read back: rocBLAS reads each once

    @property
    def dtype(self) -> np.dtype[Any]:
        return self.precision.compute_dtype

    def as_plain(self, precision: Precision) -> Call:
        """This call as an untyped Call of one precision."""
        return Call(self.fname, self.routine, precision, self.flavour, self.names, self.values, self.ilp64)

    def kernel_dtype(self, name: str) -> np.dtype[Any]:
        return _kernel_dtype(self.types[name], self.precision)

    def _converted(self, op: BatchOperand, name: str) -> BatchOperand:
        kd = self.kernel_dtype(name)
        return op if kd == op.dtype else replace(op, compute_dtype=kd)

    def vector(self, name: str, n: int, inc: int, *, writable: bool = False, dtype: Any = None) -> BatchOperand:
        if name not in self.types:
            return super().vector(name, n, inc, writable=writable, dtype=dtype)
        op = super().vector(name, n, inc, writable=writable, dtype=self.types[name].dtype)
        return self._converted(op, name)

    def matrix(self, name: str, rows: int, cols: int, ld: int, *, writable: bool = False,
               dtype: Any = None) -> BatchOperand:
        if name not in self.types:
            return super().matrix(name, rows, cols, ld, writable=writable, dtype=dtype)
        op = super().matrix(name, rows, cols, ld, writable=writable, dtype=self.types[name].dtype)
        return self._converted(op, name)

    def scalar(self, name: str, dtype: Any = None) -> Any:
        if name not in self.types:
            return super().scalar(name, dtype)
        p, kd = self.types[name], self.kernel_dtype(name)
        value = self.as_plain(p).scalar(name)  # invalid_pointer if missing; host values rounded to p
        if self.host_mode:
            return value.astype(kd)
        if p.dtype == kd:
            return value
        return BatchOperand(self.ptr(name), p.dtype, (), (), 1, name=name, compute_dtype=kd, owner=self.values[name])

    def host_scalar(self, name: str, dtype: Any = None) -> Any:
        if name not in self.types:
            return super().host_scalar(name, dtype)
        if not self.host_mode or self.is_missing(name):
            return None
        return self.scalar(name)[0]

    def read_scalar(self, name: str, dtype: Any = None) -> Any:
        if name in self.read:
            return self.read[name]
        if name not in self.types:
            return super().read_scalar(name, dtype)
        if self.host_mode:
            return self.host_scalar(name)
        return _read_back(kx.copy_out, self.scalar(name), self.kernel_dtype(name), f"{self.fname} scalar read",
                          self.handle.stream)

    def results(self, count: int, dtype: Any) -> tuple[Any, np.ndarray | None]:
        name = self.routine.result
        assert name is not None
        p = self.types[name]
        return self.as_plain(p).results(count, p.dtype)

    def finish_results(self, task: Any, host: np.ndarray | None) -> Any:
        name = self.routine.result
        assert name is not None
        return self.as_plain(self.types[name]).finish_results(task, host)


# --- _ex routines: the flavour goes before "_ex" ---------------------------------------------------


@dataclass(frozen=True)
class ExRoutine(Routine):
    """An ``_ex`` routine.  rocBLAS names its flavours ``<op>_batched_ex`` and puts
    ``batch_count`` before a given parameter (``batch_before``) rather than last, so each
    flavour is bound (:func:`bind_ex`) as a routine of its own with the flavour fixed."""

    flavour: Flavour = PLAIN
    batch_before: str | None = None
    suffix: str = "_ex"  # gemm_ex3's is "_ex3"

    def signature(self, flavour: Flavour) -> tuple[str, ...]:
        names = list(Routine.signature(self, self.flavour))
        if self.flavour is not PLAIN and self.batch_before is not None:
            names.remove("batch_count")
            names.insert(names.index(self.batch_before), "batch_count")
        return tuple(names)


def _flavoured(body: Callable[[Call], Any]) -> Callable[[Call], Any]:
    def impl(c: Call) -> Any:
        assert isinstance(c.routine, ExRoutine)
        return body(Call(c.fname, c.routine, c.precision, c.routine.flavour, c.names, c.values, c.ilp64))

    return impl


_KIND = {PLAIN: "", BATCHED: " Batched: arrays are device arrays of device pointers, one per entry.",
         STRIDED: " Strided batched: each array is followed by the stride between entries."}


def bind_ex(routine: ExRoutine, flavour: Flavour = PLAIN, *, ilp64: bool = False) -> Callable[..., Any]:
    """The public function of one flavour of an ``_ex`` routine (``gemm_strided_batched_ex``);
    ``ilp64``: its ``_64`` function (``gemm_strided_batched_ex_64``)."""
    name = f"{routine.name}{flavour.value}{routine.suffix}"
    fixed = replace(routine, name=name, flavour=flavour, impl=_flavoured(routine.impl))
    # bind() names the function <prefix><name><flavour>: bound as PLAIN with the flavour in the name
    # (the body restores the flavour).  The precision is a placeholder: each body types its
    # arguments from its datatype arguments.
    entry = bind(fixed, H, PLAIN, prefix="", ilp64=ilp64)
    names = fixed.signature(flavour)
    entry.__doc__ = (f"rocblas_{entry.__name__}({', '.join(names)})\n\n{routine.summary}{_KIND[flavour]}"
                     f"{_ILP64_DOC if ilp64 else ''}\n\n"
                     f"Types are chosen by the datatype arguments (Datatype members or their values); see "
                     f"rocmath.blas.ex.  Raises the rocBLAS status exceptions of rocmath.errors in rocBLAS's check "
                     f"order.")
    return entry


# --- shared checks ---------------------------------------------------------------------------


_INT32 = range(-(1 << 31), 1 << 31)
_DATATYPE_VALUES = frozenset(int(d) for d in Datatype)


def _datatypes(c: Call, *names: str) -> tuple[Datatype | int, ...]:
    """The datatype arguments as rocBLAS receives them: a :class:`Datatype` member, or the
    bare int of a value no ``rocblas_datatype`` has.

    rocBLAS validates no datatype up front: an unknown value only matches nothing in a type
    dispatch (not_implemented, where that dispatch is).  invalid_value only for what no C
    enum (int32) can hold."""
    out: list[Datatype | int] = []
    for name in names:
        value = c.values[name]
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and int(value) in _INT32:
            out.append(Datatype(int(value)) if int(value) in _DATATYPE_VALUES else int(value))
        else:
            out.append(c.enum(name, Datatype))  # a member's name ("f32_r"), else invalid_value
    return tuple(out)


def _c_integer(c: Call, name: str) -> int:
    """An argument rocBLAS takes as a C integer and never validates: gemm_ex's ``algo`` (a
    ``rocblas_gemm_algo``, only compared with ``GemmAlgo.solution_index``) and ``flags`` (a
    ``uint32_t``).  Any Python int is accepted, as C converts any integer to these types: a
    negative flags is its uint32 bit pattern (-1 is 0xFFFFFFFF, what a C caller passing -1
    gets: check_solution_index among them).  Not an integer: invalid_value, as no C integer
    holds it."""
    value = c.values[name]
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise RocblasInvalidValueError(f"must be an integer, got {value!r}", arg=name, index=c.index(name))
    return int(value)


def _unsupported(c: Call, arg: str, types: dict[str, Datatype | int]) -> RocblasNotImplementedError:
    listed = ", ".join(f"{k}={v}" for k, v in types.items())
    return RocblasNotImplementedError(f"rocblas_{c.fname} does not implement {listed}", arg=arg, index=c.index(arg))


def _require_types(c: Call, table: frozenset[Any], arg: str, **types: Datatype | int) -> tuple[Precision, ...]:
    """The precisions of a supported type combination, else not_implemented naming ``arg``."""
    if tuple(types.values()) not in table:
        raise _unsupported(c, arg, types)
    precisions = tuple(precision_of(t) for t in types.values())
    assert all(p is not None for p in precisions)
    return precisions  # type: ignore[return-value]


def _sizes(c: Call, *names: str) -> list[int]:
    """Size arguments, each >= 0, then the batch count (>= 0), else invalid_size."""
    out = []
    for name in names:
        value = c.int(name)
        if value < 0:
            raise c.invalid_size(name, f"must be non-negative, got {value}")
        out.append(value)
    return [*out, c.batch_count]


def _lds(c: Call, *pairs: tuple[str, int]) -> None:
    for name, rows in pairs:
        ld = c.int(name)
        if ld < rows:
            raise c.invalid_size(name, f"must be >= {rows} (the rows it spans), got {ld}")


def _require_scalars(c: Call, *names: str) -> None:
    """invalid_pointer naming the first missing scalar among ``names`` (in host pointer mode
    a scalar is a value, missing only as None)."""
    for name in names:
        if c.is_missing(name):
            raise c.invalid_pointer(name)


def _require_arrays(c: Call, *names: str) -> None:
    """invalid_pointer naming the first null array among ``names``."""
    for name in names:
        if c.is_null(name):
            raise c.invalid_pointer(name)


def _stored(op: Operation, rows: int, cols: int) -> tuple[int, int]:
    """The stored shape of a matrix whose op() is ``rows x cols``."""
    return (rows, cols) if op is Operation.none else (cols, rows)


def _unread(c: Call, dtype: Any) -> np.ndarray:
    """An empty placeholder for a matrix the kernel must not read, one entry per batch entry."""
    return np.zeros((c.batch_count, 0, 0), dtype=dtype)


# --- gemm_ex -----------------------------------------------------------------------------------

_TO_LEVEL3 = {"a": "A", "b": "B", "c": "C"}


def _gemm_shape(c: Call) -> tuple[Operation, Operation, int, int, int, int]:
    """gemm_ex's (and gemm_ex3's, and get_solutions') transposes (invalid_value), sizes and batch
    count, then leading dimensions (invalid_size), in rocBLAS's validateArgs order:
    ``(transA, transB, m, n, k, batch_count)``."""
    ta, tb = c.enum("transA", Operation), c.enum("transB", Operation)
    m, n, k, batch = _sizes(c, "m", "n", "k")
    _lds(c, ("ldc", m), ("ldd", m), ("lda", m if ta is Operation.none else k),
         ("ldb", k if tb is Operation.none else n))
    return ta, tb, m, n, k, batch


def _gemm_pointers(c: Call, k: int, scalar: Precision | None, c_t: Any, d_t: Any) -> tuple[Any, Any]:
    """The rest of gemm_ex's validateArgs, after its quick return, as gemm_ex3's and get_solutions'
    too: no alpha (``k > 0``), no beta, no ``d``: invalid_pointer; alpha and beta read in ``scalar``
    (alpha 0 when ``k == 0``), then a null ``c`` with ``beta != 0``, a null ``a`` or ``b`` with
    ``k > 0`` and ``alpha != 0``: invalid_pointer (``scalar`` None: nothing is read and these two
    rules are skipped); ``d`` is ``c`` with another leading dimension (invalid_size) or type
    (invalid_value).  Returns ``(alpha, beta)`` (None, None without ``scalar``)."""
    _require_scalars(c, *(("alpha",) if k else ()), "beta")
    _require_arrays(c, "d")
    alpha = beta = None
    if scalar is not None:
        scalars = TypedCall(c, scalar, {"alpha": scalar, "beta": scalar})
        beta = scalars.read_scalar("beta")
        alpha = scalars.read_scalar("alpha") if k else scalar.compute_dtype.type(0)
        if beta != 0:
            _require_arrays(c, "c")
        if k and alpha != 0:
            _require_arrays(c, "a", "b")
    if c.ptr("c") == c.ptr("d"):
        if c.int("ldc") != c.int("ldd"):
            raise c.invalid_size("ldd", "d is c: ldd must equal ldc")
        if c_t != d_t:
            raise RocblasInvalidValueError("d is c: d_type must equal c_type", arg="d_type", index=c.index("d_type"))
    return alpha, beta


def _gemm_ex(c: Call) -> None:
    a_t, b_t, c_t, d_t, comp_t = _datatypes(c, "a_type", "b_type", "c_type", "d_type", "compute_type")
    # rocBLAS copies alpha and beta to the host in compute_type before any other check; its
    # switch has no case for other types (rocblas_copy_alpha_beta_to_host_if_on_device,
    # rocblas_gemm_ex.hpp; called first in rocblas_gemm_ex_impl), in either pointer mode.
    if comp_t not in GEMM_EX_SCALAR_TYPES:
        raise _unsupported(c, "compute_type", {"compute_type": comp_t})
    _c_integer(c, "algo")
    c.int("solution_index")
    _c_integer(c, "flags")
    ta, tb, m, n, k, batch = _gemm_shape(c)
    if m == 0 or n == 0 or batch == 0:
        return
    comp = precision_of(comp_t)
    assert comp is not None
    alpha, beta = _gemm_pointers(c, k, comp, c_t, d_t)
    in_place = c.ptr("c") == c.ptr("d")
    if a_t != b_t or c_t != d_t or (a_t, c_t, comp_t) not in GEMM_EX_TYPES:
        raise _unsupported(c, "compute_type", {"a_type": a_t, "b_type": b_t, "c_type": c_t, "d_type": d_t,
                                               "compute_type": comp_t})
    a, cd = precision_of(a_t), precision_of(c_t)
    assert a is not None and cd is not None
    # rocBLAS casts the pointers to their types only when aligned for them (gemm_ex_typecasting,
    # rocblas_gemm_ex_kernels.cpp): an element of a and b (c and d) apart, a pointer's 8 bytes for
    # a batched call's arrays of pointers; else invalid_size.
    for name, p in (("a", a), ("b", a), ("c", cd), ("d", cd)):
        size = 8 if c.flavour is BATCHED else p.itemsize
        if c.ptr(name) % size:
            raise c.invalid_size(name, f"the pointer 0x{c.ptr(name):x} is not aligned to {size} bytes")
    types = {"alpha": comp, "beta": comp, "a": a, "b": a, "c": cd, "d": cd}
    found, launched = _solution(c, a_t, m, n, k)
    if not launched:
        # rocBLAS scans the inputs (check-numerics) before runContractionProblem looks for the solution.
        _scan_unlaunched(TypedCall(c, comp, types), ta, tb, m, n, k, alpha, beta, in_place, output=found)
        if not found:
            raise RocblasInvalidValueError(f"no solution {c.int('solution_index')}: the library has "
                                           f"{', '.join(map(str, GEMM_SOLUTIONS))}", arg="solution_index",
                                           index=c.index("solution_index"))
        return
    if in_place and c.stride("c") == c.stride("d") and comp.compute_dtype.kind in "fc":
        # C == D: exactly gemm, with typed operands.
        names = tuple(_TO_LEVEL3.get(name, name) for name in c.names)
        values = {**c.values, **{big: c.values[small] for small, big in _TO_LEVEL3.items()}}
        level3._gemm(TypedCall(c, comp, {_TO_LEVEL3.get(k_, k_): p for k_, p in types.items()}, names=names,
                               values=values, read={"beta": beta, **({"alpha": alpha} if k else {})}))
        return
    _gemm_d(TypedCall(c, comp, types), ta, tb, m, n, k, alpha, beta)


def _solution(c: Call, a_t: Datatype | int, m: int, n: int, k: int) -> tuple[bool, bool]:
    """(found, launched): whether gemm_ex's launch finds a solution and runs it, as rocBLAS's
    ``runContractionProblem`` (tensile_host.cpp) with rocmath's one-solution library."""
    if c.ilp64 and max(m, n, k, *(c.int(ld) for ld in ("lda", "ldb", "ldc", "ldd"))) > _I32_MAX:
        return True, True  # gemm_ex_64's source kernels (rocblas_gemm_ex_kernels_64.cpp): no solution to pick
    index = c.int("solution_index")
    found = (_c_integer(c, "algo") != GemmAlgo.solution_index or index <= 0 or index in GEMM_SOLUTIONS
             # fallbackTensileProblem: a float problem under xf32 retries for the default solution
             or (a_t is _s and c.handle.math_mode is MathMode.xf32_xdl_math_op))
    return found, found and not _c_integer(c, "flags") & GemmFlags.check_solution_index


def _nothing(*views: Any) -> None:
    """The kernel of a gemm_ex that launches none: check-numerics' scans alone run around it."""


def _scan_unlaunched(t: TypedCall, ta: Operation, tb: Operation, m: int, n: int, k: int, alpha: Any, beta: Any,
                     in_place: bool, *, output: bool) -> None:
    """rocBLAS's check-numerics around a gemm_ex that launches no kernel (gemm_ex_typecasting): the
    operands the launch would scan before (A, B, C as :func:`_gemm_d` and Level 3's gemm pass them),
    and D after when the call succeeds (``output``).  D is passed read-only: nothing is written
    back to it."""
    mode = getattr(t.handle, "check_numerics", 0)
    if not mode:
        return
    ops = []
    if k > 0 and alpha != 0:
        ops += [t.matrix("a", *_stored(ta, m, k), t.int("lda")), t.matrix("b", *_stored(tb, k, n), t.int("ldb"))]
    if beta != 0 and not (in_place and t.stride("c") == t.stride("d")):  # (C is D: scanned as D)
        ops.append(t.matrix("c", m, n, t.int("ldc")))
    ops.append(t.matrix("d", m, n, t.int("ldd")))
    if not in_place:
        t.write_only = {"d"}
    scanned = t._numerics_operands(tuple(ops), {})
    if output:  # (a read-only operand is never scanned after: say D is)
        last = len(ops) - 1
        scanned[last] = replace(scanned[last], written=True)
    name = f"rocblas_{t.public_name}"
    launch(_numerics_checked(_nothing, name, CheckNumericsMode(mode), scanned), *ops, name=name,
           stream=t.handle.stream, waited=True).wait()


def _gemm_d(t: TypedCall, ta: Operation, tb: Operation, m: int, n: int, k: int, alpha: Any, beta: Any) -> None:
    """D := alpha op(A) op(B) + beta C with D apart from C (or integer types); arguments checked."""
    read_ab, read_c = k > 0 and alpha != 0, beta != 0
    kd = t.kernel_dtype("d")
    A = t.matrix("a", *_stored(ta, m, k), t.int("lda")) if read_ab else _unread(t, t.kernel_dtype("a"))
    B = t.matrix("b", *_stored(tb, k, n), t.int("ldb")) if read_ab else _unread(t, t.kernel_dtype("b"))
    C = t.matrix("c", m, n, t.int("ldc")) if read_c else _unread(t, kd)
    D = t.matrix("d", m, n, t.int("ldd"), writable=True)
    k3.ensure_blas()  # on the calling thread, before the stream compiles or loads a kernel
    if t.ptr("c") != t.ptr("d"):
        t.write_only = {"d"}  # rocBLAS's check-numerics scans A, B, C before, D after
    muladds = m * n * k * t.batch_count if read_ab else 0
    t.launch(kx.gemm_ex, ord(ta.letter), ord(tb.letter), np.array([alpha], kd), A, B, np.array([beta], kd), C, D,
             flops=float(muladds) * (8 if kd.kind == "c" else 2))


_GEMM_EX_PARAMS = ("transA", "transB", "m", "n", "k", "alpha", "a", "a_type", "lda", "b", "b_type", "ldb", "beta",
                   "c", "c_type", "ldc", "d", "d_type", "ldd", "compute_type", "algo", "solution_index", "flags")
GEMM_EX = ExRoutine("gemm", _GEMM_EX_PARAMS, {"a": "lda", "b": "ldb", "c": "ldc", "d": "ldd"}, _gemm_ex,
                    batch_before="compute_type",
                    summary="D := alpha op(A) op(B) + beta C in the types given (alpha, beta of compute_type).")


def _hgemm(c: Call) -> None:
    level3._gemm(TypedCall(c, H, {"alpha": H, "beta": H, "A": H, "B": H, "C": H}))


HGEMM = Routine("gemm", level3.GEMM.params, dict(level3.GEMM.arrays), _hgemm,
                summary="C := alpha op(A) op(B) + beta C in half precision: computed in float32, C rounded to half "
                        "once at the end.")


# --- Level-1 _ex ---------------------------------------------------------------------------------


def _axpy_ex(c: Call) -> None:
    alpha_t, x_t, y_t, ex_t = _datatypes(c, "alpha_type", "x_type", "y_type", "execution_type")
    n = c.int("n")
    if n <= 0 or c.batches() <= 0:
        return
    _require_scalars(c, "alpha")
    pa, px, py, pe = _require_types(c, AXPY_EX_TYPES, "execution_type", alpha_type=alpha_t, x_type=x_t,
                                    y_type=y_t, execution_type=ex_t)
    # Level 1's axpy: host alpha == 0 returns; null x or y (host mode) is invalid_pointer.
    level1._axpy(TypedCall(c, pe, {"alpha": pa, "x": px, "y": py}))


def _scal_ex(c: Call) -> None:
    alpha_t, x_t, ex_t = _datatypes(c, "alpha_type", "x_type", "execution_type")
    n, incx = c.int("n"), c.int("incx")
    if n <= 0 or incx <= 0 or c.batches() <= 0:
        return
    pa, px, pe = _require_types(c, SCAL_EX_TYPES, "execution_type", alpha_type=alpha_t, x_type=x_t,
                                execution_type=ex_t)
    _require_scalars(c, "alpha")
    t = TypedCall(c, pe, {"alpha": pa, "x": px})
    if t.host_scalar("alpha") == 1:
        return
    level1._scal(t)


#: rocblas_sizeof_datatype (utility.hpp): the bytes a reduction's quick return zero-fills per
#: result; 0 for a value no rocblas_datatype has.
_DATATYPE_BYTES = {_h: 2, _s: 4, _d: 8, Datatype.f16_c: 4, _c: 8, _z: 16, _i8: 1, Datatype.u8_r: 1, _i32: 4,
                   Datatype.u32_r: 4, Datatype.i8_c: 2, Datatype.u8_c: 2, Datatype.i32_c: 8, Datatype.u32_c: 8,
                   _bf: 2, Datatype.bf16_c: 4, Datatype.f8_r: 1, Datatype.bf8_r: 1, Datatype.invalid: 4}


def _zero_results(c: Call, result_t: Datatype | int, count: int) -> Any:
    """Reductions with nothing to reduce: each result zero-filled, whatever ``result_type``
    (rocBLAS memsets ``rocblas_sizeof_datatype(result_type)`` bytes per result before any
    type dispatch: rocblas_dot_ex_imp.hpp, rocblas_nrm2_ex_imp.hpp); nothing when count is 0.

    A type rocmath has a precision for gives its 0; another gives its zero bytes (host
    mode: a ``numpy.void`` of that size, none for an unknown value)."""
    name = c.routine.result
    assert name is not None
    if not c.host_mode and count == 0:
        return None
    p = precision_of(result_t)
    if p is not None:
        return level1._zero_results(TypedCall(c, p, {name: p}), count, p.dtype)
    size = _DATATYPE_BYTES.get(result_t, 0)
    if not c.host_mode:
        if size:
            c.launch(level1._fill_zero, Buffer(c.ptr(name), np.dtype(np.uint8), (size * count,), name=name,
                                               owner=c.values[name]))
        return None
    zeros = np.zeros(count, dtype=np.dtype(f"V{size}"))
    user = c.values.get(name)
    if isinstance(user, np.ndarray) and user.flags.c_contiguous:  # a host result buffer given, as in C
        user.reshape(-1).view(np.uint8)[: size * count] = 0
    return zeros[0] if c.flavour is PLAIN else zeros


def _dot_ex(c: Call, conjugate: bool = False) -> Any:
    x_t, y_t, r_t, ex_t = _datatypes(c, "x_type", "y_type", "result_type", "execution_type")
    n = c.int("n")
    count = max(c.batches(), 0)
    if count == 0 or n <= 0:
        if not c.host_mode and count and c.is_null("result"):
            raise c.invalid_pointer("result")
        return _zero_results(c, r_t, count)
    if c.is_null("x") or c.is_null("y") or (not c.host_mode and c.is_null("result")):
        raise c.invalid_pointer("x" if c.is_null("x") else "y" if c.is_null("y") else "result")
    px, py, pr, pe = _require_types(c, DOT_EX_TYPES, "execution_type", x_type=x_t, y_type=y_t,
                                    result_type=r_t, execution_type=ex_t)
    return level1._dot(TypedCall(c, pe, {"x": px, "y": py, "result": pr}), conjugate)


def _nrm2_ex(c: Call) -> Any:
    x_t, r_t, ex_t = _datatypes(c, "x_type", "result_type", "execution_type")
    n, incx = c.int("n"), c.int("incx")
    count = max(c.batches(), 0)
    if not c.host_mode and c.is_null("results"):
        raise c.invalid_pointer("results")
    if n <= 0 or incx <= 0 or count == 0:
        return _zero_results(c, r_t, count)
    if c.is_null("x"):
        raise c.invalid_pointer("x")
    px, pr, pe = _require_types(c, NRM2_EX_TYPES, "execution_type", x_type=x_t, result_type=r_t,
                                execution_type=ex_t)
    # Level 1's reduction checks a device "result" by that name: give it rocBLAS's "results".
    values = {**c.values, "result": c.values["results"]}
    return level1._nrm2(TypedCall(c, pe, {"x": px, "results": pr}, values=values))


#: rot_ex's products of storage-type values are of that type (rocblas_rot_kernels.hpp multiplies two
#: halves, or two rocblas_bfloat16s, before it widens to float): significant bits, frexp's least
#: exponent, largest finite value.
_ROUNDING = {H: (11, -13, (2 - 2.0**-10) * 2.0**15), BF16: (8, -125, (2 - 2.0**-7) * 2.0**127)}


def _rot_ex(c: Call) -> None:
    x_t, y_t, cs_t, ex_t = _datatypes(c, "x_type", "y_type", "cs_type", "execution_type")
    n = c.int("n")
    if n <= 0 or c.batches() <= 0:
        return
    _require_arrays(c, "x", "y")
    _require_scalars(c, "c", "s")
    px, py, pcs, pe = _require_types(c, ROT_EX_TYPES, "execution_type", x_type=x_t, y_type=y_t, cs_type=cs_t,
                                     execution_type=ex_t)
    values = c.values
    pc = pcs
    if pcs.is_complex:
        # rocBLAS uses the real part of c: in device memory that is a real at the same address.
        pc = pcs.real
        if c.host_mode and isinstance(c["c"], (numbers.Number, np.ndarray)):
            values = {**values, "c": np.real(c["c"])}
    level1._rot(TypedCall(c, pe, {"x": px, "y": py, "c": pc, "s": pcs}, values=values), rounding=_ROUNDING.get(px))


_L1_SUMMARY = " in the types given (datatype arguments); computed in execution_type."
AXPY_EX = ExRoutine("axpy", ("n", "alpha", "alpha_type", "x", "x_type", "incx", "y", "y_type", "incy",
                             "execution_type"), {"x": "incx", "y": "incy"}, _axpy_ex,
                    stride_names={"x": "stridex", "y": "stridey"}, batch_before="execution_type",
                    summary="y := alpha*x + y" + _L1_SUMMARY)
SCAL_EX = ExRoutine("scal", ("n", "alpha", "alpha_type", "x", "x_type", "incx", "execution_type"), {"x": "incx"},
                    _scal_ex, stride_names={"x": "stridex"}, batch_before="execution_type",
                    summary="x := alpha*x" + _L1_SUMMARY)
_DOT_EX_PARAMS = ("n", "x", "x_type", "incx", "y", "y_type", "incy", "result", "result_type", "execution_type")
DOT_EX = ExRoutine("dot", _DOT_EX_PARAMS, {"x": "incx", "y": "incy"}, _dot_ex, result="result",
                   summary="result := x . y" + _L1_SUMMARY + " Returned in host pointer mode.")
DOTC_EX = ExRoutine("dotc", _DOT_EX_PARAMS, {"x": "incx", "y": "incy"}, partial(_dot_ex, conjugate=True),
                    result="result", summary="result := conj(x) . y" + _L1_SUMMARY + " Returned in host pointer mode.")
NRM2_EX = ExRoutine("nrm2", ("n", "x", "x_type", "incx", "results", "result_type", "execution_type"),
                    {"x": "incx"}, _nrm2_ex, result="results",
                    summary="results := ||x||_2" + _L1_SUMMARY + " Returned in host pointer mode.")
ROT_EX = ExRoutine("rot", ("n", "x", "x_type", "incx", "y", "y_type", "incy", "c", "s", "cs_type",
                           "execution_type"), {"x": "incx", "y": "incy"}, _rot_ex, batch_before="execution_type",
                   summary="Apply the plane rotation (c, s): x := c*x + s*y, y := c*y - conj(s)*x" + _L1_SUMMARY)


# --- trsm_ex -----------------------------------------------------------------------------------


def _trsm_ex(c: Call) -> None:
    (comp_t,) = _datatypes(c, "compute_type")
    if comp_t not in TRSM_EX_TYPES:  # rocblas_trsm_ex's switch on it comes first (rocblas_trsm.cpp)
        raise _unsupported(c, "compute_type", {"compute_type": comp_t})
    p = precision_of(comp_t)
    assert p is not None
    c.int("invA_size")
    level3._trsm(Call(c.fname, c.routine, p, c.flavour, c.names, c.values, c.ilp64))


TRSM_EX = ExRoutine("trsm", ("side", "uplo", "transA", "diag", "m", "n", "alpha", "A", "lda", "B", "ldb", "invA",
                             "invA_size", "compute_type"), {"A": "lda", "B": "ldb", "invA": "invA_size"}, _trsm_ex,
                    stride_names={"A": "stride_A", "B": "stride_B", "invA": "stride_invA"}, batch_before="invA",
                    query="pointers",
                    summary="Solve op(A) X = alpha B (side left) or X op(A) = alpha B (right) in compute_type; X "
                            "overwrites B.  invA (inverted diagonal blocks) may be null.")


# --- geam_ex -----------------------------------------------------------------------------------

_TRANS_NT = (Operation.none, Operation.transpose)


def _geam_ex(c: Call) -> None:
    a_t, b_t, c_t, d_t, comp_t = _datatypes(c, "a_type", "b_type", "c_type", "d_type", "compute_type")
    if comp_t not in GEAM_EX_TYPES:
        raise _unsupported(c, "compute_type", {"compute_type": comp_t})
    ta, tb = c.enum("transA", Operation, _TRANS_NT), c.enum("transB", Operation, _TRANS_NT)
    operation = c.enum("geam_ex_op", GeamExOperation)
    m, n, k, batch = _sizes(c, "m", "n", "k")
    _lds(c, ("ldc", m), ("ldd", m), ("lda", m if ta is Operation.none else k),
         ("ldb", k if tb is Operation.none else n))
    if c.ptr("C") == c.ptr("D") and c.int("ldc") != c.int("ldd"):
        raise c.invalid_size("ldd", "D is C: ldd must equal ldc")
    if m == 0 or n == 0 or batch == 0:
        return
    _require_scalars(c, "beta")
    _require_arrays(c, "D")
    _require_scalars(c, *(("alpha",) if k else ()))
    comp = precision_of(comp_t)
    assert comp is not None
    t = TypedCall(c, comp, {"alpha": comp, "beta": comp, "A": comp, "B": comp, "C": comp, "D": comp})
    kd = t.kernel_dtype("D")
    alpha = t.scalar("alpha") if k else np.zeros(1, dtype=kd)
    beta = t.scalar("beta")
    read_ab, read_c = k > 0, True
    if c.host_mode or c.is_null("C") or (k and (c.is_null("A") or c.is_null("B"))):
        # Host values decide what is read (rocBLAS's host checks); in device mode a null array
        # makes the call read the scalars back (synchronously) and decide likewise.
        a_value = t.read_scalar("alpha") if k else 0
        b_value = t.read_scalar("beta")
        read_ab, read_c = k > 0 and a_value != 0, b_value != 0
        if read_ab:
            _require_arrays(c, "A", "B")
        if read_c:
            _require_arrays(c, "C")
        alpha, beta = np.array([a_value], dtype=kd), np.array([b_value], dtype=kd)
    if not a_t == b_t == c_t == d_t == comp_t:
        raise _unsupported(c, "compute_type", {"a_type": a_t, "b_type": b_t, "c_type": c_t, "d_type": d_t,
                                               "compute_type": comp_t})
    A = t.matrix("A", *_stored(ta, m, k), c.int("lda")) if read_ab else _unread(t, kd)
    B = t.matrix("B", *_stored(tb, k, n), c.int("ldb")) if read_ab else _unread(t, kd)
    C = t.matrix("C", m, n, c.int("ldc")) if read_c else _unread(t, kd)
    D = t.matrix("D", m, n, c.int("ldd"), writable=True)
    # min-plus starts from rocBLAS's "max value": the largest finite float or double, half's inf.
    start = np.array([np.inf if comp is H else np.finfo(comp.dtype).max], dtype=kd)
    t.launch(kx.geam_ex, int(operation is GeamExOperation.min_plus), int(ta is Operation.transpose),
             int(tb is Operation.transpose), k, start, alpha, A, B, beta, C, D,
             flops=3.0 * m * n * k, bytes=float(comp.itemsize * (m * k + k * n + 2 * m * n)))


GEAM_EX = ExRoutine("geam", ("transA", "transB", "m", "n", "k", "alpha", "A", "a_type", "lda", "B", "b_type", "ldb",
                             "beta", "C", "c_type", "ldc", "D", "d_type", "ldd", "compute_type", "geam_ex_op"),
                    {"A": "lda", "B": "ldb", "C": "ldc", "D": "ldd"}, _geam_ex,
                    summary="Tropical products: D := min(beta C, min_k(alpha A + alpha B)) (min_plus) or "
                            "beta C + sum_k min(alpha A, alpha B) (plus_min).")


# --- the public names: one line each ------------------------------------------------------------
# fmt: off
gemm_ex = bind_ex(GEMM_EX)
gemm_batched_ex = bind_ex(GEMM_EX, BATCHED)
gemm_strided_batched_ex = bind_ex(GEMM_EX, STRIDED)
hgemm = bind(HGEMM, H)
hgemm_batched = bind(HGEMM, H, BATCHED)
hgemm_strided_batched = bind(HGEMM, H, STRIDED)
axpy_ex = bind_ex(AXPY_EX)
axpy_batched_ex = bind_ex(AXPY_EX, BATCHED)
axpy_strided_batched_ex = bind_ex(AXPY_EX, STRIDED)
scal_ex = bind_ex(SCAL_EX)
scal_batched_ex = bind_ex(SCAL_EX, BATCHED)
scal_strided_batched_ex = bind_ex(SCAL_EX, STRIDED)
dot_ex = bind_ex(DOT_EX)
dot_batched_ex = bind_ex(DOT_EX, BATCHED)
dot_strided_batched_ex = bind_ex(DOT_EX, STRIDED)
dotc_ex = bind_ex(DOTC_EX)
dotc_batched_ex = bind_ex(DOTC_EX, BATCHED)
dotc_strided_batched_ex = bind_ex(DOTC_EX, STRIDED)
nrm2_ex = bind_ex(NRM2_EX)
nrm2_batched_ex = bind_ex(NRM2_EX, BATCHED)
nrm2_strided_batched_ex = bind_ex(NRM2_EX, STRIDED)
rot_ex = bind_ex(ROT_EX)
rot_batched_ex = bind_ex(ROT_EX, BATCHED)
rot_strided_batched_ex = bind_ex(ROT_EX, STRIDED)
trsm_ex = bind_ex(TRSM_EX)
trsm_batched_ex = bind_ex(TRSM_EX, BATCHED)
trsm_strided_batched_ex = bind_ex(TRSM_EX, STRIDED)
geam_ex = bind_ex(GEAM_EX)
# rocBLAS's ILP64 API: the same routines with int64_t sizes (bind(..., ilp64=True)).
gemm_ex_64 = bind_ex(GEMM_EX, ilp64=True)
gemm_batched_ex_64 = bind_ex(GEMM_EX, BATCHED, ilp64=True)
gemm_strided_batched_ex_64 = bind_ex(GEMM_EX, STRIDED, ilp64=True)
hgemm_64 = bind(HGEMM, H, ilp64=True)
hgemm_batched_64 = bind(HGEMM, H, BATCHED, ilp64=True)
hgemm_strided_batched_64 = bind(HGEMM, H, STRIDED, ilp64=True)
axpy_ex_64 = bind_ex(AXPY_EX, ilp64=True)
axpy_batched_ex_64 = bind_ex(AXPY_EX, BATCHED, ilp64=True)
axpy_strided_batched_ex_64 = bind_ex(AXPY_EX, STRIDED, ilp64=True)
scal_ex_64 = bind_ex(SCAL_EX, ilp64=True)
scal_batched_ex_64 = bind_ex(SCAL_EX, BATCHED, ilp64=True)
scal_strided_batched_ex_64 = bind_ex(SCAL_EX, STRIDED, ilp64=True)
dot_ex_64 = bind_ex(DOT_EX, ilp64=True)
dot_batched_ex_64 = bind_ex(DOT_EX, BATCHED, ilp64=True)
dot_strided_batched_ex_64 = bind_ex(DOT_EX, STRIDED, ilp64=True)
dotc_ex_64 = bind_ex(DOTC_EX, ilp64=True)
dotc_batched_ex_64 = bind_ex(DOTC_EX, BATCHED, ilp64=True)
dotc_strided_batched_ex_64 = bind_ex(DOTC_EX, STRIDED, ilp64=True)
nrm2_ex_64 = bind_ex(NRM2_EX, ilp64=True)
nrm2_batched_ex_64 = bind_ex(NRM2_EX, BATCHED, ilp64=True)
nrm2_strided_batched_ex_64 = bind_ex(NRM2_EX, STRIDED, ilp64=True)
rot_ex_64 = bind_ex(ROT_EX, ilp64=True)
rot_batched_ex_64 = bind_ex(ROT_EX, BATCHED, ilp64=True)
rot_strided_batched_ex_64 = bind_ex(ROT_EX, STRIDED, ilp64=True)
# fmt: on

__all__ = public_names(globals())
