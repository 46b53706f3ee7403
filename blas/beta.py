"""rocBLAS's beta API (``rocblas-beta.h``, enabled by ``ROCBLAS_BETA_FEATURES_API``): gemm_ex3, and the
gemm_ex solution queries.

gemm_ex3, gemm_batched_ex3, gemm_strided_batched_ex3
    ``D := alpha op(A) op(B) + beta C`` with 8-bit float operands (:mod:`rocmath.float8`: ``f8_r``
    is E4M3, ``bf8_r`` E5M2, both in gfx942's FNUZ encoding, stored as uint8).  Arguments as
    gemm_ex's, but ``compute_type`` is a :class:`~rocmath.blas.ComputeType` (alpha and beta are
    float32 values in every one).  The types (``a_type``, ``b_type``, ``c_type = d_type``):

    - ``ComputeType.f32``: f8/f8, bf8/bf8, f8/bf8, bf8/f8 into f32 or f16; f8/f8 into f8; bf8/bf8,
      f8/bf8, bf8/f8 into bf8;
    - ``f8_f8_f32``: f16/f16 into f16, f8/f32 and f32/f8 into f8;
    - ``f8_bf8_f32``: f16/f16 into f16, f32/bf8 into bf8 or f32;
    - ``bf8_f8_f32``: f16/f16 into f16, bf8/f32 into f32;
    - ``bf8_bf8_f32``: f16/f16 into f16, bf8/f32 into bf8.

    The composite compute types name the float8 formats A and B enter the product in: a half or
    float operand is rounded into it first.  Products of float8 values are exact in float32,
    summed in float32; ``alpha acc + beta C`` is rounded once into D's type.  Rounding into float8
    is to nearest even, saturating; with ``GemmFlags.stochastic_rounding`` in ``flags`` it is
    stochastic, from rocBLAS's generator (:func:`rocmath.float8.prand`) of each element's offset in
    its matrix (``i + j * ld``, of its batch entry), its bits and a seed per matrix.  rocBLAS draws
    the seeds at random on every call unless ``SR_SEED_A``, ``SR_SEED_B``, ``SR_SEED_C`` are set;
    rocmath reads those variables too, and takes 0 for one that is not set, so that a call's
    results repeat.

    The check order is rocBLAS's (rocblas_gemm_ex3.cpp, rocblas_gemm_ex3.hpp): a device outside
    gfx940 to gfx99x (``getArch()`` 940 ..< 1000: gfx94x, gfx950) is ``arch_mismatch``; a compute
    type that is none of the five is ``not_implemented``;
    ``transA``, ``transB`` ``invalid_value``; negative sizes or batch count ``invalid_size``;
    ``ldc < m``, ``ldd < m``, ``lda < (transA == N ? m : k)``, ``ldb < (transB == N ? k : n)``
    ``invalid_size``; ``m == 0``, ``n == 0`` or ``batch_count == 0`` succeed; no alpha (``k > 0``),
    no beta, no ``d``: ``invalid_pointer``; a null ``c`` with ``beta != 0``, a null ``a`` or ``b``
    with ``k > 0`` and ``alpha != 0``: ``invalid_pointer``; ``c == d`` with ``ldc != ldd``:
    ``invalid_size``, with ``c_type != d_type``: ``invalid_value``; a type combination not listed:
    ``not_implemented``; a pointer not aligned to its element (each entry's, in the batched form:
    rocBLAS runs the entries one by one and has computed those before a misaligned one, rocmath
    checks them all first and computes none): ``invalid_size``.  ``k == 0`` is no quick return
    (``D := beta C``); ``beta == 0`` never reads C; ``alpha == 0`` never reads A and B.  ``algo``,
    ``solution_index`` and ``flags`` are C integers rocBLAS does not validate.  A device-memory
    size query answers after the type and
    alignment checks with the workspace rocBLAS allocates for operands it rounds into float8 (one
    byte per element of A or B), none where its small-matrix kernel rounds them as it reads
    (``transA == N`` with ``m < 4``, or ``n < 4`` with ``transB == T`` and ``transA`` N or T).

gemm_ex_get_solutions, gemm_batched_ex_get_solutions, gemm_strided_batched_ex_get_solutions
    The indices of the gemm solutions that solve a gemm_ex problem, for gemm_ex's ``algo =
    GemmAlgo.solution_index`` and ``solution_index``.  rocmath's simulated Tensile library has one,
    index 1 (:data:`~rocmath.blas.ex.GEMM_SOLUTIONS`), which solves every problem gemm_ex has; see
    :mod:`rocmath.blas.ex` for how gemm_ex picks it.  The arguments are gemm_ex's of the same flavour
    without ``solution_index``, then ``list_array`` and ``list_size``.  The order is rocBLAS's
    (rocblas_gemm_ex.cpp, rocblas_gemm_ex_arg_check, getAllSolutions): ``transA``, ``transB``
    ``invalid_value``; negative sizes or batch count, ``ldc < m``, ``ldd < m``, ``lda``, ``ldb`` too
    small: ``invalid_size``; ``m == 0``, ``n == 0`` or ``batch_count == 0`` succeed, writing nothing;
    no alpha (``k > 0``), no beta, no ``d``: ``invalid_pointer``; a null ``c`` with ``beta != 0``, a
    null ``a`` or ``b`` with ``k > 0`` and ``alpha != 0``: ``invalid_pointer`` (the values read in
    the compute type, where it is one of gemm_ex's six scalar types: another skips these two rules);
    ``c == d`` with ``ldc != ldd``: ``invalid_size``, with ``c_type != d_type``: ``invalid_value``;
    a type combination gemm_ex does not have: ``not_implemented`` (naming ``compute_type``); no
    ``list_size`` (with a ``list_array``): ``invalid_pointer``.  Unlike gemm_ex, an unknown compute
    type is not refused first (these functions do not copy alpha and beta first), and no pointer
    alignment is checked.  A device-mode scalar the value rules need is read back (rocBLAS reads it
    through the pointer on the host).  No device memory is written, no kernel runs, no log line is
    written (rocBLAS logs none of these functions), check-numerics scans nothing.  In a
    device-memory size query the answer is ``size_unchanged`` at once, but for f16_r or bf16_r A
    and B with an f32_r compute type, whose checks run as outside a query up to the pointers (not
    checked) and which then answer the list as outside one (rocBLAS sizes their Tensile workspace
    after the checks, and answers the solutions in the query too).

gemm_ex_get_solutions_by_type, gemm_batched_ex_get_solutions_by_type
    ``(handle, input_type, output_type, compute_type, flags, list_array, list_size)``: the solutions
    for gemm_ex problems of these types (A and B ``input_type``, C and D ``output_type``).  A
    combination gemm_ex has answers solution 1, another ``not_implemented``; then ``list_size`` as
    above.  No size query, log line or check-numerics (rocBLAS's have none; it does not check the
    handle either, where rocmath raises ``invalid_handle``).  There is no strided form.

    The answer, in Python's form (out-parameters are returned): with ``list_array=None`` (C's
    NULL) the call returns the number of solutions, 1; ``list_size`` is then ignored, or a host
    int32 numpy array of one entry at least, which receives the count as C's ``*list_size`` does.
    With ``list_array`` (a writable host int32 numpy array) the call fills its first
    ``min(list_size, count)`` entries and returns them as a list (``[1]``, or ``[]`` for a
    ``list_size`` of 0 or less); ``list_size`` is an int or a one-entry int32 array holding it,
    and None there is C's null ``list_size``: ``invalid_pointer``.  A C programmer's two calls read
    the same::

        count = gemm_ex_get_solutions(handle, ..., compute_type, algo, flags)            # (NULL, &size)
        solutions = np.empty(count, np.int32)
        gemm_ex_get_solutions(handle, ..., compute_type, algo, flags, solutions, count)  # -> [1]

    A ``list_array`` or ``list_size`` array of another kind (not int32, read-only, not contiguous;
    an empty ``list_size``): ``invalid_pointer``; a ``list_array`` shorter than the entries to write:
    ``invalid_size``.  A quick return answers None (no ``list_array``) or ``[]``; a size query
    answered at once ``RocblasStatus.size_unchanged``.
"""

from __future__ import annotations

import inspect
import os
from dataclasses import replace
from typing import Any

import numpy as np

from rocmath import float8
from rocmath.arguments import bind_arguments
from rocmath.errors import RocblasArchMismatchError, RocblasStatus
from rocmath.handle import c_strtol
from rocmath.launch import Buffer
from rocmath.precision import S

from . import _kernels_ex2 as kx
from . import _kernels_l3 as k3
from ._api import BATCHED, PLAIN, STRIDED, Call, Flavour, _read_back, public_names
from ._handle import check_handle
from ._types import ComputeType, Datatype, GemmFlags, Operation
from .ex import (
    _INT32,
    GEMM_EX,
    GEMM_EX_SCALAR_TYPES,
    GEMM_EX_TYPES,
    GEMM_SOLUTIONS,
    ExRoutine,
    _c_integer,
    _datatypes,
    _gemm_pointers,
    _gemm_shape,
    _stored,
    _unread,
    _unsupported,
    bind_ex,
    precision_of,
)

_F8, _BF8, _F16, _F32 = Datatype.f8_r, Datatype.bf8_r, Datatype.f16_r, Datatype.f32_r
#: Each datatype's storage code in the kernel (rocmath.float8's formats, half, float) and its bytes.
_STORAGE = {_F8: (float8.F8, 1), _BF8: (float8.BF8, 1), _F16: (kx.HALF, 2), _F32: (kx.SINGLE, 4)}
_FORMAT = {_F8: float8.F8, _BF8: float8.BF8}


def _ex3_types() -> dict[tuple[Any, ...], tuple[Datatype, Datatype]]:
    """(a_type, b_type, c_type = d_type, compute_type) -> the float8 types A and B are multiplied in
    (rocblas_gemm_ex3_template's dispatch)."""
    table: dict[tuple[Any, ...], tuple[Datatype, Datatype]] = {}
    pairs = ((_F8, _F8), (_BF8, _BF8), (_F8, _BF8), (_BF8, _F8))
    for a, b in pairs:
        for out in (_F32, _F16):
            table[a, b, out, ComputeType.f32] = (a, b)
    for a, b, out in ((_F8, _F8, _F8), (_BF8, _BF8, _BF8), (_F8, _BF8, _BF8), (_BF8, _F8, _BF8)):
        table[a, b, out, ComputeType.f32] = (a, b)
    composite = {ComputeType.f8_f8_f32: (_F8, _F8), ComputeType.f8_bf8_f32: (_F8, _BF8),
                 ComputeType.bf8_f8_f32: (_BF8, _F8), ComputeType.bf8_bf8_f32: (_BF8, _BF8)}
    for comp, formats in composite.items():
        table[_F16, _F16, _F16, comp] = formats
    for a, b, out, comp in ((_F8, _F32, _F8, ComputeType.f8_f8_f32), (_F32, _F8, _F8, ComputeType.f8_f8_f32),
                            (_F32, _BF8, _BF8, ComputeType.f8_bf8_f32), (_F32, _BF8, _F32, ComputeType.f8_bf8_f32),
                            (_BF8, _F32, _F32, ComputeType.bf8_f8_f32),
                            (_BF8, _F32, _BF8, ComputeType.bf8_bf8_f32)):
        table[a, b, out, comp] = composite[comp]
    return table


#: The type combinations gemm_ex3 implements (see the module docstring).
GEMM_EX3_TYPES = _ex3_types()
_COMPUTE_MEMBERS = frozenset(int(t) for t in ComputeType)
_COMPUTE_VALUES = _COMPUTE_MEMBERS - {int(ComputeType.invalid)}  # the five rocBLAS's switch knows


def _compute_type(c: Call) -> ComputeType | int:
    """``compute_type`` as rocBLAS receives it: a member, or the bare int of another value."""
    value = c.values["compute_type"]
    if _is_int(value) and int(value) in _INT32:
        return ComputeType(int(value)) if int(value) in _COMPUTE_MEMBERS else int(value)
    return c.enum("compute_type", ComputeType)  # a member's name ("f8_f8_f32"), else invalid_value


def arch_number(gcn_arch_name: str) -> int:
    """rocBLAS's ``handle->getArch()`` of a device's gcnArchName: gfx942 -> 942, gfx90a -> 910."""
    name = gcn_arch_name.split(":")[0].removeprefix("gfx")
    return int(name[:-1]) * 10 + int(name[-1], 16)


def sr_seed(name: str) -> int:
    """A stochastic-rounding seed: rocBLAS's ``SR_SEED_A/B/C`` (``strtol(text, NULL, 10)`` stored in a
    ``uint32_t``: a leading decimal integer, saturated to a 64-bit long, its low 32 bits; no digits 0),
    else 0 (rocBLAS draws one at random then; rocmath's results repeat)."""
    return c_strtol(os.environ.get(name, ""), base=10) & 0xFFFFFFFF


def _entry_pointers(c: Call, name: str) -> np.ndarray:
    """A batched call's entry pointers of ``name`` (its device array of pointers, read now, after the
    work before it on the stream, as rocBLAS copies them to the host); none for a null array."""
    if c.ptr(name) == 0:  # (not is_null: this runs in size queries too)
        return np.zeros(0, dtype=np.uint64)
    source = Buffer(c.ptr(name), np.dtype(np.uint64), (c.batch_count,), name=name)
    return _read_back(kx.copy_out, source, np.uint64, f"{c.fname} pointer read", c.handle.stream,
                      count=c.batch_count)


def _aligned(c: Call, types: dict[str, Datatype]) -> None:
    """invalid_size for a pointer not aligned to its element's bytes (gemm_ex3_typecasting's
    isAligned; the batched form checks each entry's, as it runs entry by entry)."""
    for name, t in types.items():
        size = _STORAGE[t][1]
        pointers = _entry_pointers(c, name) if c.flavour is BATCHED else np.array([c.ptr(name)], np.uint64)
        bad = np.flatnonzero(pointers % np.uint64(size))
        if bad.size:
            where = f"entry {bad[0]}'s pointer" if c.flavour is BATCHED else "the pointer"
            raise c.invalid_size(name, f"{where} 0x{int(pointers[bad[0]]):x} is not aligned to {size} bytes")


def _ex3_formats(c: Call, a_t: Any, b_t: Any, c_t: Any, d_t: Any, comp_t: Any) -> tuple[Datatype, Datatype]:
    """The float8 types A and B enter the product in, after the type dispatch (not_implemented for a
    combination gemm_ex3 has not) and the pointers' alignment (gemm_ex3_typecasting)."""
    formats = GEMM_EX3_TYPES.get((a_t, b_t, c_t, comp_t)) if c_t == d_t else None
    if formats is None:
        raise _unsupported(c, "compute_type", {"a_type": a_t, "b_type": b_t, "c_type": c_t, "d_type": d_t,
                                               "compute_type": comp_t})
    _aligned(c, {"a": a_t, "b": b_t, "c": c_t, "d": d_t})
    return formats


def _small(ta: Operation, tb: Operation, m: int, n: int) -> bool:
    """rocBLAS's fallback kernel (it rounds operands as it reads them, no workspace)."""
    return (ta is Operation.transpose and tb is Operation.transpose and n < 4) or (
        ta is Operation.none and (m < 4 or (tb is Operation.transpose and n < 4)))


def _gemm_ex3(c: Call) -> Any:
    device = c.handle.device.properties.gcnArchName
    if not 940 <= arch_number(device) < 1000:
        raise RocblasArchMismatchError(f"gemm_ex3 needs a gfx940-gfx99x device, this is {device}", arg="handle",
                                       index=c.index("handle"))
    a_t, b_t, c_t, d_t = _datatypes(c, "a_type", "b_type", "c_type", "d_type")
    comp_t = _compute_type(c)
    # rocBLAS copies alpha and beta to the host in the compute type first: its switch knows the five.
    if int(comp_t) not in _COMPUTE_VALUES:
        raise _unsupported(c, "compute_type", {"compute_type": comp_t})
    _c_integer(c, "algo")
    c.int("solution_index")
    flags = _c_integer(c, "flags") & 0xFFFFFFFF
    ta, tb, m, n, k, batch = _gemm_shape(c)
    if m == 0 or n == 0 or batch == 0:
        return None
    if c.querying:  # rocBLAS checks no pointer in a size query; the types and alignment it does
        formats = _ex3_formats(c, a_t, b_t, c_t, d_t, comp_t)
        quantized = () if _small(ta, tb, m, n) else tuple(
            rows * cols for t, f, rows, cols in ((a_t, formats[0], m, k), (b_t, formats[1], k, n)) if t != f)
        return c.handle.size_query(*quantized)
    alpha, beta = _gemm_pointers(c, k, S, c_t, d_t)
    formats = _ex3_formats(c, a_t, b_t, c_t, d_t, comp_t)
    read_ab, read_c = k > 0 and alpha != 0, beta != 0

    def operand(name: str, t: Datatype, rows: int, cols: int, ld: str, *, writable: bool = False) -> Any:
        dtype = np.dtype({_F32: np.float32, _F16: np.float16}.get(t, np.uint8))
        return c.matrix(name, rows, cols, c.int(ld), writable=writable, dtype=dtype)

    A = operand("a", a_t, *_stored(ta, m, k), "lda") if read_ab else _unread(c, np.uint8)
    B = operand("b", b_t, *_stored(tb, k, n), "ldb") if read_ab else _unread(c, np.uint8)
    C = operand("c", c_t, m, n, "ldc") if read_c else _unread(c, np.uint8)
    D = operand("d", d_t, m, n, "ldd", writable=True)
    stochastic = bool(flags & GemmFlags.stochastic_rounding)
    c.float8 = {name: _FORMAT[t] for name, t in (("a", a_t), ("b", b_t), ("c", c_t), ("d", d_t)) if t in _FORMAT}
    if c.ptr("c") != c.ptr("d"):
        c.write_only = {"d"}  # rocBLAS's check-numerics scans A, B, C before, D after
    k3.ensure_blas()  # on the calling thread, before the stream compiles or loads a kernel
    c.launch(kx.gemm_ex3, ord(ta.letter), ord(tb.letter), np.array([alpha], np.float32),
             A, (_STORAGE[a_t][0], _FORMAT[formats[0]], sr_seed("SR_SEED_A"), c.int("lda")),
             B, (_STORAGE[b_t][0], _FORMAT[formats[1]], sr_seed("SR_SEED_B"), c.int("ldb")),
             np.array([beta], np.float32), C, D, (_STORAGE[d_t][0], sr_seed("SR_SEED_C"), c.int("ldc")), stochastic,
             flops=2.0 * m * n * k * batch if read_ab else 0.0)
    return None


GEMM_EX3 = ExRoutine("gemm", GEMM_EX.params, {"a": "lda", "b": "ldb", "c": "ldc", "d": "ldd"}, _gemm_ex3,
                     batch_before="compute_type", suffix="_ex3", query="pointers",
                     summary="D := alpha op(A) op(B) + beta C with float8 operands (rocBLAS beta API; alpha, beta "
                             "float32).")

# --- gemm_ex's solutions -------------------------------------------------------------------------


def _solution_list(c: Call) -> Any:
    """getAllSolutions' answer (tensile_host.cpp) of rocmath's library, in Python's form: no list_array,
    the count (written to a list_size array too); else the first min(list_size, count) indices, written
    to list_array and returned."""
    count = len(GEMM_SOLUTIONS)
    array, size = c.values["list_array"], c.values["list_size"]
    if array is None:
        if size is not None and not _is_int(size):
            _int32_array(c, "list_size")[0] = count  # (C writes *list_size)
        return count
    if size is None:
        raise c.invalid_pointer("list_size")
    wanted = c.int("list_size") if _is_int(size) else int(_int32_array(c, "list_size")[0])
    out = _int32_array(c, "list_array", empty=True)
    filled = max(0, min(wanted, count))
    if out.size < filled:
        raise c.invalid_size("list_array", f"holds {out.size} entries, {filled} to write")
    out[:filled] = GEMM_SOLUTIONS[:filled]
    return list(GEMM_SOLUTIONS[:filled])


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _int32_array(c: Call, name: str, *, empty: bool = False) -> np.ndarray:
    """A ``rocblas_int*`` host argument: a writable contiguous int32 numpy array (of one entry at least
    unless ``empty``), flattened; else invalid_pointer (no pointer C could pass rocBLAS to use)."""
    value = c.values[name]
    if not isinstance(value, np.ndarray) or value.dtype != np.int32 or not (value.size or empty):
        raise c.invalid_pointer(name, f"expected a {'' if empty else 'non-empty '}host int32 numpy array, "
                                      f"got {type(value).__name__}")
    if not value.flags.writeable or not (value.flags.c_contiguous or value.flags.f_contiguous):
        raise c.invalid_pointer(name, "host array is read-only or not contiguous")
    return value.reshape(-1, order="A")


_HPA_INPUTS = (Datatype.f16_r, Datatype.bf16_r)


def _gemm_ex_get_solutions(c: Call) -> Any:
    a_t, b_t, c_t, d_t, comp_t = _datatypes(c, "a_type", "b_type", "c_type", "d_type", "compute_type")
    _c_integer(c, "algo")  # (rocBLAS does not pass algo on: any int)
    _c_integer(c, "flags")
    for name in c.names:
        if name.startswith("stride_"):
            c.int(name)
    # A size query answers at once but for half and bfloat16 in float32 (HPA), whose workspace
    # rocBLAS's Tensile sizes after the argument checks (rocblas_gemm_ex.cpp).
    if c.querying and not (comp_t is Datatype.f32_r and a_t in _HPA_INPUTS):
        return RocblasStatus.size_unchanged
    # rocblas_gemm_ex_arg_check, without gemm_ex's copy of alpha and beta first.
    _, _, m, n, k, batch = _gemm_shape(c)
    if m == 0 or n == 0 or batch == 0:
        if c.querying:
            return RocblasStatus.size_unchanged
        return None if c.values["list_array"] is None else []
    if not c.querying:  # (the arg check stops before the pointers in a query)
        # The value rules read the scalars (host mode: as rocBLAS; device mode: read back, where rocBLAS
        # would dereference the device pointer on the host) in a compute type its switch knows.
        _gemm_pointers(c, k, precision_of(comp_t) if comp_t in GEMM_EX_SCALAR_TYPES else None, c_t, d_t)
    if a_t != b_t or c_t != d_t or (a_t, c_t, comp_t) not in GEMM_EX_TYPES:
        raise _unsupported(c, "compute_type", {"a_type": a_t, "b_type": b_t, "c_type": c_t, "d_type": d_t,
                                               "compute_type": comp_t})
    return _solution_list(c)


def _gemm_ex_get_solutions_by_type(c: Call) -> Any:
    in_t, out_t, comp_t = _datatypes(c, "input_type", "output_type", "compute_type")
    _c_integer(c, "flags")
    if (in_t, out_t, comp_t) not in GEMM_EX_TYPES:
        raise _unsupported(c, "compute_type", {"input_type": in_t, "output_type": out_t, "compute_type": comp_t})
    return _solution_list(c)


_LIST = ("list_array", "list_size")
_LIST_DOC = """list_array : numpy.ndarray of int32, optional
    Host array the solution indices are written to (C's ``rocblas_int* list_array``).  None (C's
    NULL): the call answers the number of solutions instead.
list_size : int or numpy.ndarray of int32, optional
    With ``list_array``: how many entries to write at most (an int, or a one-entry array holding
    it); None is C's null ``list_size``: invalid_pointer.  Without ``list_array``: ignored, or a
    one-entry int32 array the count is written to, as C writes ``*list_size``."""
_RETURNS_DOC = """int or list of int
    Without ``list_array``, the number of solutions (1); with it, the ``min(list_size, 1)``
    indices written to it: ``[1]``, or ``[]``."""


def _bind_solutions(name: str, names: tuple[str, ...], flavour: Flavour, impl: Any, doc: str) -> Any:
    """A public get_solutions function: no log line, no check-numerics, no plan (rocBLAS's get_solutions
    log nothing and launch nothing); out-parameters answered as :func:`_solution_list` says."""
    routine = ExRoutine(name, names[1:], {}, impl, flavour=flavour)

    def entry(*args: Any, **kwargs: Any) -> Any:
        values = bind_arguments(name, names, args, kwargs, _LIST)
        check_handle(values["handle"])  # (rocBLAS's by_type does not check it: a null one crashes there)
        return impl(Call(name, routine, S, flavour, names, values))

    entry.__name__ = entry.__qualname__ = name
    entry.__module__ = "rocmath.blas"
    entry.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                           default=None if n in _LIST else inspect.Parameter.empty) for n in names])
    entry.__doc__ = f"rocblas_{name}({', '.join(names)})\n\n{doc}"
    return entry


def _solutions(flavour: Flavour) -> Any:
    gemm = f"gemm{flavour.value}_ex"
    names = (*(n for n in replace(GEMM_EX, flavour=flavour).signature(flavour) if n != "solution_index"), *_LIST)
    return _bind_solutions(f"{gemm}_get_solutions", names, flavour, _gemm_ex_get_solutions, f"""\
The gemm solutions that solve this {gemm} problem (rocBLAS beta API).
rocmath's library has one, index 1, solving every problem gemm_ex has; see rocmath.blas.beta.

Parameters
----------
handle, transA, ..., compute_type, algo, flags
    The problem: {gemm}'s arguments but ``solution_index``, checked as gemm_ex's (no
    alignment check); ``algo`` and ``flags`` are not validated.
{_LIST_DOC}

Returns
-------
{_RETURNS_DOC}
    A quick return (``m``, ``n`` or ``batch_count`` 0) writes nothing and answers None (no
    ``list_array``) or ``[]``.  In a device-memory size query: ``RocblasStatus.size_unchanged``
    (but for f16_r/bf16_r A and B with an f32_r compute type, whose arguments are checked and
    answered as outside a query).

Raises
------
RocblasError
    The rocBLAS status of the first failed check, in rocBLAS's order (rocmath.errors): as
    gemm_ex's, then not_implemented for a type combination gemm_ex does not have, then
    invalid_pointer for a missing ``list_size``.
""")


def _solutions_by_type(flavour: Flavour) -> Any:
    gemm = f"gemm{flavour.value}_ex"
    names = ("handle", "input_type", "output_type", "compute_type", "flags", *_LIST)
    return _bind_solutions(f"{gemm}_get_solutions_by_type", names, flavour, _gemm_ex_get_solutions_by_type, f"""\
The gemm solutions for {gemm} of these types (rocBLAS beta API).
rocmath's library has one, index 1, for every type combination gemm_ex has; see rocmath.blas.beta.

Parameters
----------
handle : BlasHandle
input_type, output_type, compute_type : Datatype or int
    The type of A and B, of C and D, and of the computation.
flags : int
    GemmFlags (a uint32_t; not validated).
{_LIST_DOC}

Returns
-------
{_RETURNS_DOC}

Raises
------
RocblasError
    not_implemented for a type combination gemm_ex does not have, then invalid_pointer for a
    missing ``list_size`` (rocmath.errors).
""")


# --- the public names: one line each ------------------------------------------------------------
gemm_ex3 = bind_ex(GEMM_EX3)
gemm_batched_ex3 = bind_ex(GEMM_EX3, BATCHED)
gemm_strided_batched_ex3 = bind_ex(GEMM_EX3, STRIDED)
gemm_ex_get_solutions = _solutions(PLAIN)
gemm_batched_ex_get_solutions = _solutions(BATCHED)
gemm_strided_batched_ex_get_solutions = _solutions(STRIDED)
gemm_ex_get_solutions_by_type = _solutions_by_type(PLAIN)
gemm_batched_ex_get_solutions_by_type = _solutions_by_type(BATCHED)

__all__ = public_names(globals())
