"""The generic API: spmv and spmm with their stages (buffer_size -> preprocess -> compute).

Formats as rocSPARSE: spmv takes CSR, CSC, COO, COO (AoS), ELL and BSR matrices (blocked ELL: every
algorithm is invalid_value); spmm takes CSR, CSC, COO, BSR and blocked ELL (COO (AoS) and ELL:
not_implemented).  BSR products and blocked-ELL spmm need ``trans`` (``trans_A``) none; BSR spmm
takes ``trans_B`` none or transpose.  Non-general COO (AoS), ELL, BSR and blocked-ELL matrices are
not_implemented (spmm: every non-general matrix); spmv checks these blocked formats as rocSPARSE's
templates do, at compute (BSR also at its default preprocess), and an ELL matrix must then be sorted
(requires_sorted_storage) and have no width without rows or columns (invalid_size).  Index types
without rocSPARSE code (u16, or i32 offsets with i64 indices) are not_implemented before anything
about the values.  A blocked-ELL matrix's rows and columns must be
multiples of its block dimension (rocSPARSE silently leaves the remainder out; here it is invalid_size).
Blocked-ELL spmm of an empty product scales C by beta (rocSPARSE returns without touching C).

COO spmm takes the algorithms default, coo_segmented, coo_atomic and coo_segmented_atomic (any other
is invalid_value), every ``trans_A`` and ``trans_B`` and B and C in either order.  Its entries must be
sorted by row, as rocSPARSE's COO format requires (duplicates add up); a descriptor whose storage
mode is unsorted is requires_sorted_storage, as rocsparse_coomm's own check.  The four algorithms
run one product: the compute stage builds the row pointer of the row indices in the handle's
workspace (as coo2csr) and runs the CSR kernels on it, so results are bitwise reproducible (rocSPARSE's
atomic algorithms add in a varying order) and equal those of the CSR matrix of the same arrays.  As
rocSPARSE's COO kernels, which skip the product when alpha is 0, a host-mode alpha == 0 only scales C
by beta (A and B are not read; in device mode the product runs with alpha 0).

``stage=buffer_size`` returns the bytes of ``temp_buffer`` the compute stage needs: the private
accumulators of scattered (transposed) CSR / CSC / COO products (rocSPARSE adds with atomics there);
0 for empty products, non-transposed CSR and COO products (as rocSPARSE's COO algorithms but
coo_segmented, which asks for block-reduction space) and every COO (AoS), ELL, BSR and blocked-ELL
product.
``stage=preprocess`` analyses a CSR matrix for spmv's default, csr_adaptive and csr_lrb
algorithms (a row partition balanced by nonzeros, kept in the descriptor, as csrmv_analysis); it
has nothing to do for COO spmm, as rocSPARSE's.  ``stage=compute`` runs the product.  The size is
returned by every stage; ``buffer_size`` may also be a 1-element host array that receives it.
Omitted, it stands for a valid pointer (hipSPARSE passes one to a local); None is rocSPARSE's null
pointer, so that ``buffer_size=None`` with a null ``temp_buffer`` is invalid_pointer naming
buffer_size at every stage, and spmm's buffer_size stage wants a non-null buffer_size, as
rocSPARSE.  Check order as rocSPARSE: handle, trans, alpha, the descriptors, beta, compute_type
(spmm: it must be C's type), alg, stage, buffer_size and temp_buffer; then the value types
(not_implemented unless a combination of :data:`SPMV_TYPES` / :data:`SPMM_TYPES`) and the algorithm
for the format (invalid_value); spmm then checks the matrix type, a COO matrix's storage mode and
the sizes of op(A), op(B) and C (invalid_size, naming mat_C).  CSC matrices run as the CSR matrix
of their transpose.

Precisions are rocSPARSE's: uniform f32/f64 real or complex; int8 matrix and vectors into an int32
or float y (compute type y's); spmv also a real or single precision matrix with vectors of a wider
type (f32 with f64, f32 with c32, f64 with c64, c32 with c64).  The product runs in the compute type:
an operand of another type is converted into the handle's workspace first (as rocSPARSE's kernels
convert each value they load; int32 results wrap around as rocSPARSE's).  ``ROCSPARSE_LAYER`` logs both
as it logs the bound routines (trace ``rocsparse_spmv``/``rocsparse_spmm``; a bench line for the compute
stage of the uniform CSR, CSC and COO products the bench rebuilds, unbatched).

Const descriptors (``create_const_*``) are taken as A, x, B; as y or C (rocSPARSE's mutable descriptors) they
are invalid_pointer naming the argument (see :mod:`._descr`).

Strided batches (``csr_set_strided_batch``, ``csc_set_strided_batch``, ``coo_set_strided_batch``,
``dnmat_set_strided_batch``): spmm of a CSR, CSC or COO matrix runs ``C_i := alpha op(A_i) op(B_i) + beta C_i``
for the batch_count entries of C, in rocSPARSE's three modes (A of one entry with B of C's count, B of one entry
with A of C's count, or all three alike; anything else is invalid_value at the compute stage, after the quick
returns for m, n or k of 0, which scale every entry of C, and for host alpha 0 with beta 1, as csrmm_core and
coomm_template).  Every CSR and CSC algorithm runs them (rocSPARSE's row_split, nnz_split and merge_path kernels
take no batch arguments and compute entry 0 alone when op(A) = A; its documentation promises batches for CSR).
Blocked-ELL spmm with a batch count other than 1 is invalid_value (rocsparse_bellmm's check; here also for an
empty product, which rocSPARSE returns from first); BSR spmm is not_implemented (rocSPARSE has no check and
computes entry 0 only).  The buffer size does not grow with the batches.  spmv takes no batches, as
rocSPARSE's: a batched descriptor acts as its entry 0.
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable
from typing import Any

import numpy as np

import rocmath
from rocmath.handle import PointerMode
from rocmath.kernel import pool_threads
from rocmath.launch import Buffer
from rocmath.plans import Plan, find_plan, planned_call
from rocmath.precision import Precision

from . import _debug
from . import _kernels as k
from . import _kernels_batched as kb
from ._api import Call, is_null
from ._descr import DnMatDescr, DnVecDescr, SpMatDescr, check_dnmat, check_dnvec, check_spmat
from ._formats import conjugated, launch_block_rows, launch_ell, launch_scatter, scale_rows
from ._handle import check_handle
from ._level2 import analyse_rows, launch_coomv, launch_csrmv, scale_y, scatter_chunks, stream_bounds
from ._level3 import dense_view, launch_csrmm, scale_c
from ._solve import _copy, _round256
from ._types import (
    Datatype,
    Format,
    IndexType,
    MatrixType,
    Operation,
    SparseInvalidPointerError,
    SparseInvalidValueError,
    SparseNotImplementedError,
    SparseRequiresSortedStorageError,
    SpMMAlg,
    SpMMStage,
    SpMVAlg,
    SpMVStage,
    StorageMode,
)
from ._validate import check_coo_aos, check_csr, check_indices

__all__ = ["SPMM_TYPES", "SPMV_TYPES", "spmm", "spmv", "spmv_ex"]

_F32, _F64, _C32, _C64 = Datatype.f32_r, Datatype.f64_r, Datatype.f32_c, Datatype.f64_c
_I8, _I32 = Datatype.i8_r, Datatype.i32_r
_UNIFORM = frozenset((t, t, t, t) for t in (_F32, _F64, _C32, _C64))
#: rocSPARSE's spmv types (A, x, y, compute_type): uniform, int8 into int32 or float, and real or single
#: precision matrices with vectors of a wider type ("mixed-regular").
SPMV_TYPES = _UNIFORM | {(_I8, _I8, _I32, _I32), (_I8, _I8, _F32, _F32), (_F32, _F64, _F64, _F64),
                         (_C32, _C64, _C64, _C64), (_F32, _C32, _C32, _C32), (_F64, _C64, _C64, _C64)}
#: rocSPARSE's spmm types (A, B, C, compute_type): uniform, and int8 into int32 or float (CSR, CSC and COO: its
#: documentation restricts the mixed ones to these three formats).
SPMM_TYPES = _UNIFORM | {(_I8, _I8, _I32, _I32), (_I8, _I8, _F32, _F32)}
_SPMV_ALGS = {
    Format.csr: (SpMVAlg.default, SpMVAlg.csr_stream, SpMVAlg.csr_adaptive, SpMVAlg.csr_lrb),
    Format.csc: (SpMVAlg.default, SpMVAlg.csr_stream, SpMVAlg.csr_adaptive, SpMVAlg.csr_lrb),
    Format.coo: (SpMVAlg.default, SpMVAlg.coo, SpMVAlg.coo_atomic),
    Format.coo_aos: (SpMVAlg.default, SpMVAlg.coo, SpMVAlg.coo_atomic),
    Format.ell: (SpMVAlg.default, SpMVAlg.ell),
    Format.bsr: (SpMVAlg.default, SpMVAlg.bsr),
    Format.bell: (),
}
_SPMM_ALGS = {
    Format.csr: (SpMMAlg.default, SpMMAlg.csr, SpMMAlg.csr_row_split, SpMMAlg.csr_nnz_split,
                 SpMMAlg.csr_merge_path),
    Format.csc: (SpMMAlg.default, SpMMAlg.csr, SpMMAlg.csr_row_split, SpMMAlg.csr_nnz_split,
                 SpMMAlg.csr_merge_path),
    Format.coo: (SpMMAlg.default, SpMMAlg.coo_segmented, SpMMAlg.coo_atomic, SpMMAlg.coo_segmented_atomic),
    Format.bsr: (SpMMAlg.default, SpMMAlg.bsr),
    Format.bell: (SpMMAlg.default, SpMMAlg.bell),
}
#: The formats whose products run in the blocked kernel of :mod:`._formats` (all general matrices only).
_BLOCKED = (Format.coo_aos, Format.ell, Format.bsr, Format.bell)


def _layered(fn: Callable[..., int] | None = None, *, replay: bool = False) -> Any:
    """Route a generic routine through ``ROCSPARSE_LAYER`` (trace, bench, profile) after the handle check, as
    :func:`rocmath.sparse._api.bind` does for the bound routines (trace name ``rocsparse_<name>``).
    ``replay``: a call of one launch, positional arguments only, repeated on the same handle state and
    descriptor versions runs its checked launch again (:mod:`rocmath.plans`), as the bound products do:
    the products' compute stage, whose argument checks, descriptor unpacking and address lookups cost
    0.3-0.5 ms of Python when the kernel before evicted the caches."""
    if fn is None:
        return functools.partial(_layered, replay=replay)
    signature = inspect.signature(fn)
    names = tuple(signature.parameters)
    name = fn.__name__

    @functools.wraps(fn)
    def entry(*args: Any, **kwargs: Any) -> int:
        if _debug.active:  # rocsparse_enable_debug_*: reports and a synchronization around the call
            return _debug.run(name, args[0] if args else kwargs.get("handle"),  # type: ignore[no-any-return]
                              lambda: call(*args, **kwargs))
        return call(*args, **kwargs)

    def call(*args: Any, **kwargs: Any) -> int:
        key = None
        if replay and not kwargs:
            key, plan = find_plan(name, args)
            if plan is not None:
                plan.run(args)
                return plan.result  # type: ignore[no-any-return]
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:
            return fn(*args, **kwargs)  # raises the same TypeError
        bound.apply_defaults()
        handle = check_handle(bound.arguments["handle"])
        if handle.layer_mode:
            from ._log import logged_call

            return logged_call(handle, name, name, "", names, dict(bound.arguments),
                               lambda: fn(*args, **kwargs))
        host = handle.pointer_mode is PointerMode.host
        return planned_call(handle, key if host else None, lambda: fn(*args, **kwargs),  # type: ignore[no-any-return]
                            lambda replay, out: Plan(replay, args, handle, out))

    return entry


#: The (I, J) index types rocSPARSE's generic products are instantiated for (row pointer or COO index, column).
_INDEX_PAIRS = frozenset({(IndexType.i32, IndexType.i32), (IndexType.i64, IndexType.i32),
                          (IndexType.i64, IndexType.i64)})


def _index_types(c: Call, mat: SpMatDescr, name: str) -> None:
    """rocSPARSE's dispatch on the index types, before the value types: u16 indices, or a 32-bit pointer with
    64-bit columns, have no code (not_implemented).  CSC's pair is (column pointer, row index)."""
    pair = (mat.col_type, mat.row_type) if mat.format is Format.csc else (mat.row_type, mat.col_type)
    if pair not in _INDEX_PAIRS:
        raise SparseNotImplementedError(f"index types {tuple(t.name for t in pair)}", arg=name, index=c.index(name))


def _values(c: Call, table: frozenset[tuple[Datatype, ...]], mat: SpMatDescr, *dense: Any) -> Precision:
    """The precision of the product, its compute type's: the value types with compute_type must be a
    combination of ``table`` (not_implemented otherwise)."""
    ct = c.enum("compute_type", Datatype)
    types = (mat.data_type, *(d.data_type for d in dense), ct)
    if types not in table:
        raise SparseNotImplementedError(f"value types {[t.name for t in types[:-1]]} with compute type {ct.name}",
                                        arg="compute_type", index=c.index("compute_type"))
    return Precision.from_datatype(ct.name)


def in_compute_type(c: Call, *operands: Buffer, reserve: int = 0) -> list[Buffer]:
    """Mixed precision: every operand of another type than the compute type (``c.dtype``) as a contiguous copy
    in the compute type, made on the handle's stream into one allocation of its workspace; the products then
    run in the compute type, as rocSPARSE's kernels convert each value they read.  The first ``reserve``
    bytes of the workspace (a multiple of 64) are left to the caller, who asks for ``reserve`` bytes after."""
    dtype = c.dtype
    sizes = [int(math.prod(b.shape)) if b.dtype != dtype else 0 for b in operands]
    spans = [-(-n * dtype.itemsize // 64) * 64 for n in sizes]
    if not sum(spans):
        return [b if b.dtype == dtype else Buffer(0, dtype, b.shape, name=b.name) for b in operands]
    base = c.handle.workspace(reserve + sum(spans)) + reserve
    out, offset = [], 0
    for b, n, span in zip(operands, sizes, spans, strict=True):
        if b.dtype == dtype or n == 0:
            out.append(b if b.dtype == dtype else Buffer(0, dtype, b.shape, name=b.name))
            continue
        staged = Buffer(base + offset, dtype, b.shape, name=f"{b.name} as {dtype}")
        c.launch(_copy, b, staged, bytes=float(n * (b.dtype.itemsize + dtype.itemsize)))
        out.append(staged)
        offset += span
    return out


class _Csr:
    """A sparse descriptor as the CSR arrays the kernels take (CSC: the CSR matrix of its transpose; COO: its
    column indices, with the row pointer :meth:`build_row_ptr` makes of its row indices)."""

    def __init__(self, mat: SpMatDescr, dtype: np.dtype[Any]):
        self.transposed = mat.format is Format.csc
        self.coo = mat.format is Format.coo
        self.m, self.n = (mat.cols, mat.rows) if self.transposed else (mat.rows, mat.cols)
        self.nnz = mat.nnz
        self.base = int(mat.idx_base)
        ptr_data, ind_data = (mat.col_data, mat.row_data) if self.transposed else (mat.row_data, mat.col_data)
        ptr_type, ind_type = (mat.col_type, mat.row_type) if self.transposed else (mat.row_type, mat.col_type)
        self.val = _buffer(mat.val_data, dtype, self.nnz, "val")
        # COO: the row indices until build_row_ptr replaces them by their row pointer.  Named after the
        # arrays of rocSPARSE's create_*_descr, for checking mode's messages.
        fmt = mat.format.name
        self.ptr = _buffer(ptr_data, ptr_type.dtype, self.nnz if self.coo else self.m + 1,
                           "coo_row_ind" if self.coo else ("csc_col_ptr" if self.transposed else "csr_row_ptr"))
        self.ind = _buffer(ind_data, ind_type.dtype, self.nnz, "csc_row_ind" if self.transposed else f"{fmt}_col_ind")
        self.ptr_owner = ptr_data
        self.ind_owner = ind_data

    def row_ptr_bytes(self) -> int:
        """COO: the workspace bytes of the row pointer (256-byte aligned, so what follows stays aligned)."""
        return _round256((self.m + 1) * self.ptr.dtype.itemsize) if self.coo else 0

    def build_row_ptr(self, c: Call, at: Buffer) -> None:
        """COO: enqueue the row pointer of the row indices (sorted by row, as rocSPARSE's COO) into ``at``, as
        coo2csr does, and use it from now on."""
        rows = self.ptr
        self.ptr = Buffer(at.ptr, rows.dtype, (self.m + 1,), name=at.name, owner=at.owner)
        c.launch(k.coo_rows_to_ptr, rows, self.base, self.ptr,
                 bytes=float((self.m + 1 + self.nnz) * rows.dtype.itemsize))

    def op(self, trans: Operation) -> tuple[Operation, bool]:
        """The operation on the stored CSR matrix, and whether to conjugate without transposing."""
        if not self.transposed:
            return trans, False
        if trans is Operation.none:
            return Operation.transpose, False
        return Operation.none, trans is Operation.conjugate_transpose


def _buffer(data: Any, dtype: np.dtype[Any], length: int, name: str) -> Buffer:
    ptr = data.ptr if isinstance(data, rocmath.DeviceArray) else int(data or 0)
    return Buffer(ptr if length else 0, np.dtype(dtype), (length,), name=name, owner=data)


class _SizeOnly:
    """spmv's and spmm's ``buffer_size`` when the caller gives none: the size is only returned, as if rocSPARSE
    got a pointer to a local (what hipSPARSE passes); an explicit None is its null pointer."""

    def __repr__(self) -> str:
        return "SIZE_ONLY"


#: The default ``buffer_size`` of :func:`spmv` and :func:`spmm`.
SIZE_ONLY: Any = _SizeOnly()


def _buffer_pointers(c: Call, stage_is_buffer_size: bool) -> None:
    """rocsparse_spmv.cpp / rocsparse_spmm.cpp after the stage: buffer_size and temp_buffer both null is
    invalid_pointer (naming buffer_size) at every stage; spmm's buffer_size stage also wants buffer_size
    (``stage_is_buffer_size``)."""
    if is_null(c["buffer_size"]) and (stage_is_buffer_size or is_null(c["temp_buffer"])):
        raise c.invalid_pointer("buffer_size", "null buffer_size" + ("" if stage_is_buffer_size else
                                                                     " with a null temp_buffer"))


def _temp(c: Call, need: int, dtype: np.dtype[Any], shape: tuple[int, ...]) -> Buffer:
    if need and is_null(c["temp_buffer"]):
        raise SparseInvalidPointerError(f"temp_buffer is null, the call needs {need} bytes", arg="temp_buffer",
                                        index=c.index("temp_buffer"))
    return Buffer(c.ptr("temp_buffer") if need else 0, dtype, shape, name="temp_buffer", owner=c["temp_buffer"])


_SPMV_NAMES = ("handle", "trans", "alpha", "mat", "x", "beta", "y", "compute_type", "alg", "stage", "buffer_size",
               "temp_buffer")


@_layered(replay=True)
def spmv(handle: Any, trans: Any, alpha: Any, mat: SpMatDescr, x: Any, beta: Any, y: Any, compute_type: Any,
         alg: Any, stage: Any, buffer_size: Any = SIZE_ONLY, temp_buffer: Any = None) -> int:
    """``rocsparse_spmv``: ``y := alpha op(A) x + beta y`` for a CSR, CSC, COO, COO (AoS), ELL or BSR descriptor.

    Parameters
    ----------
    handle, trans, alpha, mat, x, beta, y, compute_type, alg, stage
        As rocSPARSE (x and y dense vector descriptors; alpha and beta by pointer mode).
    buffer_size
        Optional 1-element host integer array that receives the size (rocSPARSE's out-parameter);
        omitted, the size is only returned; None is a null pointer: with a null temp_buffer,
        invalid_pointer (at every stage, as rocSPARSE).
    temp_buffer
        Device memory of at least the size the buffer_size stage reported (None when 0).

    Returns
    -------
    int
        The temp_buffer bytes the compute stage needs (in every stage).
    """
    c = Call("spmv", None, _SPMV_NAMES, dict(zip(_SPMV_NAMES, (handle, trans, alpha, mat, x, beta, y, compute_type,
                                                                alg, stage, buffer_size, temp_buffer), strict=True)))
    check_handle(handle)
    op = c.enum("trans", Operation)
    c.pointer("alpha")
    A = check_spmat(mat, "mat", c.index("mat"))
    X = check_dnvec(x, "x", c.index("x"))
    c.pointer("beta")
    Y = check_dnvec(y, "y", c.index("y"), writable=True)
    c.enum("compute_type", Datatype)
    algo = c.enum("alg", SpMVAlg)
    stg = c.enum("stage", SpMVStage)
    _buffer_pointers(c, False)
    _index_types(c, A, "mat")
    c.precision = _values(c, SPMV_TYPES, A, X, Y)
    if A.format not in _SPMV_ALGS:
        raise SparseNotImplementedError(f"spmv on {A.format.name} matrices", arg="mat", index=c.index("mat"))
    if algo not in _SPMV_ALGS[A.format]:
        raise SparseInvalidValueError(f"{algo.name} does not apply to {A.format.name}", arg="alg",
                                      index=c.index("alg"))
    if A.format in _BLOCKED:  # their own stage-dependent checks
        return _spmv_formats(c, op, A, X, Y, algo, stg, buffer_size)
    mtype = A.descr.type
    if mtype is MatrixType.hermitian or (mtype is MatrixType.symmetric and A.format is Format.coo):
        raise SparseNotImplementedError(f"{A.descr.type.name} {A.format.name} spmv", arg="mat", index=c.index("mat"))
    dtype = c.dtype
    isz = dtype.itemsize
    m, n = A.rows, A.cols
    ylen = m if op is Operation.none else n
    symmetric = A.descr.type is MatrixType.symmetric
    csr = _Csr(A, A.data_type.dtype) if A.format is not Format.coo else None
    if csr is not None:
        inner, _ = csr.op(op)
        scattered = inner is not Operation.none or symmetric
        out = csr.m if symmetric else (csr.n if inner is not Operation.none else csr.m)
    else:
        scattered, out = True, ylen
    chunks = scatter_chunks(A.nnz, out)
    need = chunks * out * isz if scattered and A.nnz and m and n else 0
    if isinstance(buffer_size, np.ndarray):
        buffer_size.reshape(-1)[0] = need
    if stg is SpMVStage.buffer_size:
        return need
    if stg is SpMVStage.preprocess:
        if csr is not None and algo is not SpMVAlg.csr_stream and not A.analysed and csr.m and csr.n and csr.nnz:
            analyse_rows(c, A.info, Operation.none, csr.m, csr.n, csr.nnz, csr.nnz, A.descr, csr.ptr, csr.ind.ptr)
            A.analysed = True
        return need
    alpha_s, beta_s = c.scalar("alpha"), c.scalar("beta")
    yb = _buffer(Y.values, dtype, ylen, "y")
    if m == 0 or n == 0 or A.nnz == 0:
        scale_y(c, beta_s, yb)
        return need
    if c.alpha0_beta1():
        return need
    scratch = _temp(c, need, dtype, (chunks, out)) if need else None
    val, xb = in_compute_type(c, csr.val if csr is not None else _buffer(A.val_data, A.data_type.dtype, A.nnz, "val"),
                              _buffer(X.values, X.data_type.dtype, n if op is Operation.none else m, "x"))
    if csr is None:
        launch_coomv(c, op, m, n, A.nnz, int(A.idx_base), val,
                     _buffer(A.row_data, A.row_type.dtype, A.nnz, "coo_row_ind"),
                     _buffer(A.col_data, A.col_type.dtype, A.nnz, "coo_col_ind"), alpha_s, xb, beta_s, yb, scratch)
        return need
    inner, conj = csr.op(op)
    bounds = None
    if inner is Operation.none and algo is not SpMVAlg.csr_stream and A.info.csrmv is not None:
        bounds = A.info.csrmv.bounds
    launch_csrmv(c, inner, A.descr.type, csr.m, csr.n, csr.nnz, csr.base, val, csr.ptr, csr.ind, alpha_s, xb,
                 beta_s, yb, bounds, force_conj=conj, scratch=scratch)
    return need


@_layered(replay=True)
def spmv_ex(handle: Any, trans: Any, alpha: Any, mat: SpMatDescr, x: Any, beta: Any, y: Any, compute_type: Any,
            alg: Any, stage: Any, buffer_size: Any = SIZE_ONLY, temp_buffer: Any = None) -> int:
    """``rocsparse_spmv_ex``, deprecated in rocSPARSE for :func:`spmv`, which it is here too (the same
    parameters, stages and results; logged under its own name)."""
    return spmv.__wrapped__(handle, trans, alpha, mat, x, beta, y, compute_type, alg, stage,  # type: ignore[no-any-return]
                            buffer_size, temp_buffer)


_SPMM_NAMES = ("handle", "trans_A", "trans_B", "alpha", "mat_A", "mat_B", "beta", "mat_C", "compute_type", "alg",
               "stage", "buffer_size", "temp_buffer")


@_layered(replay=True)
def spmm(handle: Any, trans_A: Any, trans_B: Any, alpha: Any, mat_A: SpMatDescr, mat_B: Any, beta: Any, mat_C: Any,
         compute_type: Any, alg: Any, stage: Any, buffer_size: Any = SIZE_ONLY, temp_buffer: Any = None) -> int:
    """``rocsparse_spmm``: ``C := alpha op(A) op(B) + beta C`` for a CSR, CSC, COO, BSR or blocked-ELL matrix A
    and dense B, C.

    Parameters
    ----------
    handle, trans_A, trans_B, alpha, mat_A, mat_B, beta, mat_C, compute_type, alg, stage
        As rocSPARSE: B and C dense matrix descriptors in row or column order (each its own),
        alpha and beta by pointer mode, compute_type C's type.  A COO matrix takes alg default,
        coo_segmented, coo_atomic or coo_segmented_atomic and must be sorted by row (see the module).
    buffer_size
        Optional 1-element host integer array that receives the size (rocSPARSE's out-parameter);
        omitted, the size is only returned; None is a null pointer: invalid_pointer at the
        buffer_size stage, and at the others with a null temp_buffer (as rocSPARSE).
    temp_buffer
        Device memory of at least the size the buffer_size stage reported (None when 0); the compute
        stage of a COO matrix keeps its row pointer there.

    Returns
    -------
    int
        The temp_buffer bytes the compute stage needs (in every stage).
    """
    names = _SPMM_NAMES
    c = Call("spmm", None, names, dict(zip(names, (handle, trans_A, trans_B, alpha, mat_A, mat_B, beta, mat_C,
                                                   compute_type, alg, stage, buffer_size, temp_buffer), strict=True)))
    check_handle(handle)
    op_a = c.enum("trans_A", Operation)
    op_b = c.enum("trans_B", Operation)
    c.pointer("alpha")
    A = check_spmat(mat_A, "mat_A", c.index("mat_A"))
    B = check_dnmat(mat_B, "mat_B", c.index("mat_B"))
    c.pointer("beta")
    Cd = check_dnmat(mat_C, "mat_C", c.index("mat_C"), writable=True)
    ct = c.enum("compute_type", Datatype)
    if ct is not Cd.data_type:  # rocSPARSE's spmm computes in C's type
        raise SparseNotImplementedError(f"compute type {ct.name} for a {Cd.data_type.name} C",
                                        arg="compute_type", index=c.index("compute_type"))
    algo = c.enum("alg", SpMMAlg)
    stg = c.enum("stage", SpMMStage)
    _buffer_pointers(c, stg is SpMMStage.buffer_size)
    _index_types(c, A, "mat_A")
    c.precision = _values(c, SPMM_TYPES, A, B, Cd)
    if A.format not in _SPMM_ALGS:
        raise SparseNotImplementedError(f"spmm on {A.format.name} matrices", arg="mat_A", index=c.index("mat_A"))
    if algo not in _SPMM_ALGS[A.format]:
        raise SparseInvalidValueError(f"{algo.name} does not apply to {A.format.name}", arg="alg",
                                      index=c.index("alg"))
    if A.descr.type is not MatrixType.general:
        raise SparseNotImplementedError(f"{A.descr.type.name} spmm", arg="mat_A", index=c.index("mat_A"))
    if A.format is Format.coo and A.descr.storage_mode is not StorageMode.sorted:
        # the row pointer the product runs on needs the entries in row order (rocsparse_coomm's own check)
        raise SparseRequiresSortedStorageError("COO spmm needs its entries sorted by row (storage mode sorted)",
                                               arg="mat_A", index=c.index("mat_A"))
    if A.format in _BLOCKED:
        return _spmm_blocks(c, op_a, op_b, A, B, Cd, stg, buffer_size)
    dtype = c.dtype
    csr = _Csr(A, A.data_type.dtype)
    inner, conj_a = csr.op(op_a)
    crows = A.rows if op_a is Operation.none else A.cols
    kdim = A.cols if op_a is Operation.none else A.rows
    ncols = Cd.cols
    brows, bcols = (B.rows, B.cols) if op_b is Operation.none else (B.cols, B.rows)
    if (Cd.rows, brows, bcols) != (crows, kdim, ncols):
        raise c.invalid_size("mat_C", f"op(A) is {crows} x {kdim}, op(B) {brows} x {bcols}, C {Cd.rows} x {ncols}")
    chunks = scatter_chunks(A.nnz, csr.n, ncols)
    runs = bool(A.nnz and crows and kdim and ncols)
    # temp_buffer: the private accumulators of a scattered (transposed) product; a COO matrix's row
    # pointer goes to the handle's workspace (rocSPARSE asks no buffer of a COO product)
    ptr_bytes = csr.row_ptr_bytes() if runs else 0
    need = chunks * csr.n * ncols * dtype.itemsize if runs and inner is not Operation.none else 0
    if isinstance(buffer_size, np.ndarray):
        buffer_size.reshape(-1)[0] = need
    if stg is not SpMMStage.compute:
        return need
    if (A.batch_count, B.batch_count, Cd.batch_count) != (1, 1, 1):
        return _spmm_batches(c, op_a, op_b, A, B, Cd, csr, need, chunks, ptr_bytes)
    beta_s = c.scalar("beta")
    Cv = dense_view(Cd.values, _ptr(Cd.values), dtype, Cd.rows, Cd.cols, Cd.ld, Cd.order, name="C")
    if not runs:
        scale_c(c, beta_s, Cv)
        return need
    if c.alpha0_beta1():
        return need
    if csr.coo and c.host_mode and c.host_value("alpha") == 0:
        # rocSPARSE's COO product scales C by beta, then adds alpha op(A) op(B) only if alpha != 0
        scale_c(c, beta_s, Cv)
        return need
    scratch = _temp(c, need, dtype, (chunks, csr.n, ncols)) if need else None
    val, Bv = in_compute_type(c, csr.val, dense_view(B.values, _ptr(B.values), B.data_type.dtype, B.rows, B.cols,
                                                     B.ld, B.order, op_b is not Operation.none, "B"),
                              reserve=ptr_bytes)
    if csr.coo:  # the row pointer in the workspace before the converted operands (one request, one size)
        csr.build_row_ptr(c, Buffer(c.handle.workspace(ptr_bytes), csr.ptr.dtype, (A.rows + 1,),
                                    name="workspace"))
    if conj_a and inner is Operation.none:
        # CSC with conjugate transpose: the stored CSR rows, conjugated.
        c.launch(k.csrmm_kernel(Cv.shape[1]), True, op_b is Operation.conjugate_transpose, c.scalar("alpha"), val,
                 csr.ptr, csr.ind, csr.base, Bv, beta_s, Cv, k.uniform_bounds(csr.m, max(1, min(csr.m, 256))),
                 pool_threads())
        return need
    launch_csrmm(c, inner, op_b is Operation.conjugate_transpose, csr.m, csr.n, csr.nnz, csr.base, val, csr.ptr,
                 csr.ind, c.scalar("alpha"), Bv, beta_s, Cv, scratch=scratch)
    return need


def _ptr(data: Any) -> int:
    return data.ptr if isinstance(data, rocmath.DeviceArray) else int(data or 0)


def _lift(b: Buffer, count: int, stride: int) -> Buffer:
    """A 1-D operand as ``count`` entries ``stride`` elements apart: shape ``(count, length)``."""
    isz = b.dtype.itemsize
    return Buffer(b.ptr, b.dtype, (count, *b.shape), (stride * isz if count > 1 else 0, isz), name=b.name,
                  owner=b.owner)


def _dense_batches(d: DnMatDescr, dtype: np.dtype[Any], transposed: bool, name: str) -> Buffer:
    """A dense matrix descriptor's ``batch_count`` entries as a ``(count, rows, cols)`` view indexed [entry, row,
    column] (``transposed``: [entry, column, row])."""
    v = dense_view(d.values, _ptr(d.values), dtype, d.rows, d.cols, d.ld, d.order, transposed, name)
    count = d.batch_count
    assert v.strides is not None
    return Buffer(v.ptr, dtype, (count, *v.shape), (d.batch_stride * dtype.itemsize if count > 1 else 0, *v.strides),
                  name=name, owner=d.values)


def _check_batches(c: Call, count_a: int, count_b: int, count_c: int) -> None:
    """rocSPARSE's batch modes (csrmm_core, coomm_template): ``C_i = op(A) op(B_i)`` (A one entry, B as many as C),
    ``C_i = op(A_i) op(B)`` (B one entry, A as many as C) or ``C_i = op(A_i) op(B_i)`` (all alike); anything else
    is invalid_value, named as rocsparse_coomm's own check names it: C's count against the other operand's when
    A or B has one entry, else A's."""
    why = f"batch counts A {count_a}, B {count_b}, C {count_c}: "
    if count_a == 1 and count_c != count_b:
        raise c.invalid_value("mat_C", why + "with one A, C needs as many entries as B")
    if count_b == 1 and count_c != count_a:
        raise c.invalid_value("mat_C", why + "with one B, C needs as many entries as A")
    if count_a > 1 and count_b > 1 and (count_a != count_b or count_a != count_c):
        raise c.invalid_value("mat_A", why + "batched A and B need the same count as C")


def _spmm_batches(c: Call, op_a: Operation, op_b: Operation, A: SpMatDescr, B: DnMatDescr, Cd: DnMatDescr,
                  csr: _Csr, need: int, chunks: int, ptr_bytes: int) -> int:
    """The compute stage of a CSR, CSC or COO spmm with strided batches: ``C_i := alpha op(A_i) op(B_i) + beta
    C_i`` for the ``batch_count`` entries of C, A_i (B_i) entry 0 when A (B) has one entry.

    Order as rocSPARSE's csrmm_template / coomm_template: an m, n or k of 0 scales every entry of C by beta
    (whatever the batch counts); host alpha == 0 with beta == 1 returns; then the batch modes
    (:func:`_check_batches`); then the product, one launched task running each entry's kernels in turn
    (:func:`._kernels_batched.spmm_batches`), bitwise the product of the entry alone.  An operand of one entry
    serves every entry whatever its stride (rocSPARSE's kernels apply the stride anyway, so there one entry with a
    nonzero stride reads past the operand).  The scratch of a transposed product and a COO matrix's row pointer
    are reused entry after entry, so the buffer size does not grow with the batches."""
    dtype = c.dtype
    crows = A.rows if op_a is Operation.none else A.cols
    kdim = A.cols if op_a is Operation.none else A.rows
    ncols = Cd.cols
    count_a, count_b, count_c = A.batch_count, B.batch_count, Cd.batch_count
    beta_s = c.scalar("beta")
    Cv = _dense_batches(Cd, dtype, False, "C")
    isz = dtype.itemsize
    c_bytes = 2.0 * count_c * crows * ncols * isz
    if not (crows and kdim and ncols):
        if crows and ncols:
            c.launch(kb.scale_batches, beta_s, Cv, bytes=c_bytes)
        return need
    if c.alpha0_beta1():
        return need
    _check_batches(c, count_a, count_b, count_c)
    if A.nnz == 0 or (csr.coo and c.host_mode and c.host_value("alpha") == 0):
        # an empty A (rocSPARSE's kernels then add nothing) or rocSPARSE's COO product with alpha 0: C_i := beta C_i
        c.launch(kb.scale_batches, beta_s, Cv, bytes=c_bytes)
        return need
    inner, conj_a = csr.op(op_a)
    scratch = _temp(c, need, dtype, (chunks, csr.n, ncols)) if need else Buffer(0, dtype, (0, 0, 0))
    values_stride = A.batch_stride if csr.coo else A.columns_values_batch_stride
    offsets_stride = A.batch_stride if csr.coo else A.offsets_batch_stride
    ptr = _lift(csr.ptr, count_a, offsets_stride)
    ind = _lift(csr.ind, count_a, values_stride)
    val, Bv = in_compute_type(c, _lift(csr.val, count_a, values_stride),
                              _dense_batches(B, B.data_type.dtype, op_b is not Operation.none, "B"), reserve=ptr_bytes)
    for a in range(count_a):  # checking mode: each entry of A (COO: its columns; the row pointer is built)
        entry_ind = Buffer(ind.ptr + a * values_stride * ind.dtype.itemsize if count_a > 1 else ind.ptr,
                           ind.dtype, (csr.nnz,), name=csr.ind.name, owner=csr.ind.owner)
        if csr.coo:
            check_indices(c, entry_ind, csr.base, csr.n, "columns")
        else:
            check_csr(c, Buffer(ptr.ptr + a * offsets_stride * ptr.dtype.itemsize if count_a > 1 else ptr.ptr,
                                ptr.dtype, (csr.m + 1,), name=csr.ptr.name, owner=csr.ptr.owner),
                      entry_ind, csr.base, csr.nnz, csr.n)
    coo_ptr = (Buffer(c.handle.workspace(ptr_bytes), csr.ptr.dtype, (csr.m + 1,), name="workspace") if csr.coo
               else Buffer(0, csr.ptr.dtype, (0,)))
    conj_b = op_b is Operation.conjugate_transpose
    if inner is Operation.none:
        mode, conj = kb.ROWS, conj_a
        # the bounds of the unbatched product: the CSC conjugate transpose's even blocks, else launch_csrmm's
        bounds = (k.uniform_bounds(csr.m, max(1, min(csr.m, 256))) if conj_a else
                  stream_bounds(csr.m, csr.nnz * ncols))
    else:
        mode, conj = kb.SCATTER, inner is Operation.conjugate_transpose
        bounds = np.zeros(1, np.int64)
    flops = count_c * csr.nnz * ncols * (8.0 if dtype.kind == "c" else 2.0)
    moved = float(count_a * csr.nnz * (isz + ind.dtype.itemsize) + count_b * kdim * ncols * isz) + c_bytes
    c.launch(kb.spmm_batches, mode, conj, conj_b, c.scalar("alpha"), val, ptr, ind, csr.base, Bv, beta_s, Cv,
             k.csrmm_kernel(ncols), bounds, pool_threads(), scratch, coo_ptr, flops=flops, bytes=moved)
    return need


def _check_block_batches(c: Call, A: SpMatDescr, B: DnMatDescr, Cd: DnMatDescr) -> None:
    """Batches of a blocked-ELL or BSR spmm.  Blocked ELL: any batch count but 1 is invalid_value, in
    rocsparse_bellmm's order (A, B, C; after its quick return for an empty product, which comes first there and
    returns success).  BSR: rocSPARSE has no check, and its kernels for blocks above 1 x 1 compute entry 0 only
    (block_dim 1 runs csrmm's batched kernels): not_implemented here, naming the first batched operand."""
    for name, count in (("mat_A", A.batch_count), ("mat_B", B.batch_count), ("mat_C", Cd.batch_count)):
        if count == 1:
            continue
        if A.format is Format.bell:
            raise c.invalid_value(name, f"blocked-ELL spmm takes no batches ({name[-1]} has {count} entries)")
        raise SparseNotImplementedError(f"batched BSR spmm ({name[-1]} has {count} entries)", arg=name,
                                        index=c.index(name))


def _check_blocked(c: Call, op: Operation, A: SpMatDescr) -> None:
    """The checks of rocSPARSE's bsrmv, ellmv and coomv (AoS) templates the generic spmv runs into: BSR
    operation none, a general matrix; ELL also sorted storage and no width when it has no rows or columns."""
    if A.format is Format.bsr and op is not Operation.none:
        raise SparseNotImplementedError("BSR spmv supports operation none only", arg="trans", index=c.index("trans"))
    if A.descr.type is not MatrixType.general:
        raise SparseNotImplementedError(f"{A.descr.type.name} {A.format.name} spmv", arg="mat", index=c.index("mat"))
    if A.format is Format.ell:
        if A.descr.storage_mode is not StorageMode.sorted:
            raise SparseRequiresSortedStorageError("ELL spmv needs sorted storage", arg="mat", index=c.index("mat"))
        if (A.rows == 0 or A.cols == 0) and A.ell_width:
            raise c.invalid_size("mat", f"a {A.rows} x {A.cols} ELL matrix of width {A.ell_width}")


def _spmv_formats(c: Call, op: Operation, A: SpMatDescr, X: DnVecDescr, Y: DnVecDescr, algo: SpMVAlg,
                  stg: SpMVStage, buffer_size: Any) -> int:
    """spmv of a COO (AoS), ELL or BSR matrix (no temp_buffer: 0 bytes, as rocSPARSE).  The preprocess stage of
    a sorted BSR matrix with the default algorithm is bsrmv_analysis (its block-row partition kept in the
    descriptor's info for the compute stage), as rocSPARSE's."""
    if isinstance(buffer_size, np.ndarray):
        buffer_size.reshape(-1)[0] = 0
    if stg is SpMVStage.buffer_size:
        return 0
    bsr_analysis = A.format is Format.bsr and algo is SpMVAlg.default and not A.analysed
    if stg is SpMVStage.compute or bsr_analysis:  # ELL and COO (AoS) preprocess checks nothing, as rocSPARSE
        _check_blocked(c, op, A)
    if stg is SpMVStage.preprocess:
        if bsr_analysis and A.rows and A.cols and A.nnz and A.descr.storage_mode is StorageMode.sorted:
            analyse_rows(c, A.info, Operation.none, A.rows, A.cols, A.nnz, A.nnz * A.block_dim ** 2, A.descr,
                         _buffer(A.row_data, A.row_type.dtype, A.rows + 1, "row_ptr"), _ptr(A.col_data))
            A.analysed = True
        return 0
    dtype = c.dtype
    bd = A.block_dim if A.format is Format.bsr else 1
    m, n = A.rows * bd, A.cols * bd
    ylen, xlen = (m, n) if op is Operation.none else (n, m)
    itype, ctype = A.row_type.dtype, A.col_type.dtype
    alpha_s, beta_s = c.scalar("alpha"), c.scalar("beta")
    yb = _buffer(Y.values, dtype, ylen, "y")
    if m == 0 or n == 0 or A.nnz == 0:
        scale_rows(c, beta_s, Buffer(yb.ptr, dtype, (ylen, 1), name="y", owner=Y.values), ctype)
        return 0
    if c.alpha0_beta1():
        return 0
    val, xb = in_compute_type(c, _buffer(A.val_data, A.data_type.dtype, A.nnz * bd * bd, "val"),
                              _buffer(X.values, X.data_type.dtype, xlen, "x"))
    base = int(A.idx_base)
    if A.format is Format.ell:
        launch_ell(c, op, m, n, base, A.ell_width, val, _buffer(A.col_data, ctype, A.nnz, "col"), alpha_s, xb, beta_s,
                   yb)
    elif A.format is Format.bsr:
        xs = Buffer(xb.ptr, dtype, (n, 1), name="x", owner=xb.owner)
        ys = Buffer(yb.ptr, dtype, (m, 1), name="y", owner=Y.values)
        launch_block_rows(c, A.block_dir, False, alpha_s, _buffer(A.row_data, itype, A.rows + 1, "bsr_row_ptr"),
                          base, -1, _buffer(A.col_data, ctype, A.nnz, "bsr_col_ind"), val, bd, xs, beta_s, ys, A.nnz,
                          A.info.csrmv.bounds if A.info.csrmv is not None else None)
    else:  # COO (AoS): the row and column indices are the even and odd elements of the pairs
        pairs = _buffer(A.ind_data, itype, 2 * A.nnz, "coo_ind")
        rows = Buffer(pairs.ptr, itype, (A.nnz,), (2 * itype.itemsize,), name="coo_ind", owner=A.ind_data)
        cols = Buffer(pairs.ptr + itype.itemsize, itype, (A.nnz,), (2 * itype.itemsize,), name="coo_ind",
                      owner=A.ind_data)
        check_coo_aos(c, pairs, base, A.rows, A.cols, A.nnz)  # checking mode (ELL needs none: its padding is skipped)
        launch_scatter(c, op, Buffer(0, itype, (0,)), rows, cols, base, -2, val, alpha_s, xb, beta_s, yb, A.nnz)
    return 0


def _spmm_blocks(c: Call, op_a: Operation, op_b: Operation, A: SpMatDescr, B: DnMatDescr, Cd: DnMatDescr,
                 stg: SpMMStage, buffer_size: Any) -> int:
    """spmm of a BSR or blocked-ELL matrix (no temp_buffer; uniform precisions only, as rocSPARSE documents)."""
    if A.data_type is not Cd.data_type:
        raise SparseNotImplementedError(f"mixed precision {A.format.name} spmm", arg="mat_A", index=c.index("mat_A"))
    if isinstance(buffer_size, np.ndarray):
        buffer_size.reshape(-1)[0] = 0
    if stg is SpMMStage.buffer_size:
        return 0
    if op_a is not Operation.none:
        raise SparseNotImplementedError(f"{A.format.name} spmm supports trans_A none only", arg="trans_A",
                                        index=c.index("trans_A"))
    if A.format is Format.bsr and op_b is Operation.conjugate_transpose:
        raise SparseNotImplementedError("BSR spmm supports trans_B none or transpose", arg="trans_B",
                                        index=c.index("trans_B"))
    dtype = c.dtype
    bd = A.block_dim
    if A.format is Format.bsr:
        m, kdim, mb, nblocks = A.rows * bd, A.cols * bd, A.rows, A.nnz
    else:
        if A.rows % bd or A.cols % bd:
            raise c.invalid_size("mat_A", f"a {A.rows} x {A.cols} blocked-ELL matrix in blocks of {bd}: the sizes "
                                          "must be multiples of the block dimension")
        m, kdim, mb = A.rows, A.cols, A.rows // bd
        nblocks = mb * (A.ell_cols // bd)
    ncols = Cd.cols
    brows, bcols = (B.rows, B.cols) if op_b is Operation.none else (B.cols, B.rows)
    if (Cd.rows, brows, bcols) != (m, kdim, ncols):
        raise c.invalid_size("mat_C", f"op(A) is {m} x {kdim}, op(B) {brows} x {bcols}, C {Cd.rows} x {ncols}")
    if stg is not SpMMStage.compute:
        return 0
    _check_block_batches(c, A, B, Cd)
    beta_s = c.scalar("beta")
    col_type = A.col_type.dtype
    Cv = dense_view(Cd.values, _ptr(Cd.values), dtype, Cd.rows, Cd.cols, Cd.ld, Cd.order, name="C")
    if m == 0 or ncols == 0 or kdim == 0 or nblocks == 0:
        scale_rows(c, beta_s, Cv, col_type)
        return 0
    Bv = dense_view(B.values, _ptr(B.values), dtype, B.rows, B.cols, B.ld, B.order, op_b is not Operation.none, "B")
    if op_b is Operation.conjugate_transpose:
        Bv = conjugated(c, Bv)
    if A.format is Format.bsr:
        row_ptr = _buffer(A.row_data, A.row_type.dtype, mb + 1, "bsr_row_ptr")
        width = -1
    else:
        row_ptr, width = Buffer(0, col_type, (0,)), A.ell_cols // bd
    val = _buffer(A.val_data, dtype, nblocks * bd * bd, "val")
    launch_block_rows(c, A.block_dir, False, c.scalar("alpha"), row_ptr, int(A.idx_base), width,
                      _buffer(A.col_data, col_type, nblocks, "bsr_col_ind" if width < 0 else "ell_col_ind"), val, bd,
                      Bv, beta_s, Cv, nblocks)
    return 0
