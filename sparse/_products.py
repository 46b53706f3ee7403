"""Products rocmath.sparse's csrgemm / csrgeam do not cover: csrgemm's two-phase form and the BSR products.

- ``csrgemm_symbolic`` / ``Xcsrgemm_numeric``: csrgemm's compute stage split in two, after
  ``Xcsrgemm_buffer_size`` and ``csrgemm_nnz`` (the same ``info_C``): the symbolic stage fills C's sorted
  columns (for its ``nnz_C`` given), the numeric one its values for the structure given, repeatable with
  new values of A, B and D.  Their values equal csrgemm's bitwise (same kernels' summation order);
- ``bsrgeam_nnzb`` / ``Xbsrgeam``: ``C := alpha A + beta B`` for BSR matrices (sorted, general);
- ``Xbsrgemm_buffer_size`` / ``bsrgemm_nnzb`` / ``Xbsrgemm``: ``C := alpha A B + beta D`` for BSR matrices,
  the cases of csrgemm (multiply and add, multiply only, scale D only), recorded in ``info_C`` by the
  buffer-size stage as csrgemm's are.

As rocSPARSE (``library/src/extra/rocsparse_csrgemm_{symbolic,numeric}*.cpp``,
``rocsparse_bsrgeam{,_nnzb}.cpp``, ``rocsparse_bsrgemm*.cpp``): each stage checks its arguments in
rocSPARSE's order for the case ``info_C`` holds, takes the same quick returns, and the BSR products
work on block patterns as CSR patterns -- bsrgeam_nnzb is csrgeam_nnz and bsrgemm_nnzb csrgemm_nnz on
the block patterns (the direction plays no part), C's block columns come out sorted, and a block of C
exists wherever the block patterns meet, whatever its values (explicit zero blocks are kept).  A block
dimension of 1 runs csrgeam / csrgemm themselves; larger blocks are multiplied in a fixed order (see
:mod:`._kernels_products`), so results are bitwise reproducible and the two directions give transposed
blocks of the same values.  Beyond rocSPARSE's block dimension 32 bsrgeam and the multiplying bsrgemm
are not_implemented, as in rocSPARSE.  The scale-only cases copy D's columns (with the index base of C)
and scale its values entry by entry, as rocSPARSE does.

rocSPARSE quirks kept: ``csrgemm_symbolic`` checks no matrix type (its numeric stage does);
``bsrgemm_buffer_size`` and ``bsrgemm_nnzb`` check ``info_C`` before the handle (the former records its case
there first, even when the call then fails); a failed ``bsrgemm_buffer_size`` leaves an info whose later
stages need a non-null ``temp_buffer``.  Differences: the numeric stage places each value by C's columns
(rocSPARSE recomputes the sorted positions, assuming C's structure is the symbolic stage's: the same
result for that structure); rocSPARSE's symbolic stage returns requires_sorted_storage for unsorted B or
D only when a row of C exceeds 4096 entries (a GPU kernel's limit), rocmath's sorts any input.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from rocmath.launch import Buffer
from rocmath.precision import C, D, S, Z

from . import _kernels_extra as kx
from . import _kernels_generic_ops as kg
from . import _kernels_products as kp
from ._api import Call, Routine, bind
from ._conversion2 import _align256
from ._extra import (
    CsrgemmInfo,
    _gemm_info,
    _gemm_operands,
    _general,
    _nnz_c,
    _null,
    _null_scalar,
    _Operand,
    _operand,
    _row_blocks,
    _structure,
    _zero_nnz,
    check_operands,
)
from ._handle import MatInfo, check_descr, check_info
from ._types import (
    Direction,
    Operation,
    SparseInvalidPointerError,
    SparseNotImplementedError,
    SparseRequiresSortedStorageError,
    StorageMode,
)
from ._validate import check_csr, check_offsets

__all__ = [
    "bsrgeam_nnzb", "bsrgemm_nnzb", "cbsrgeam", "cbsrgemm", "cbsrgemm_buffer_size", "ccsrgemm_numeric",
    "csrgemm_symbolic", "dbsrgeam", "dbsrgemm", "dbsrgemm_buffer_size", "dcsrgemm_numeric", "sbsrgeam", "sbsrgemm",
    "sbsrgemm_buffer_size", "scsrgemm_numeric", "zbsrgeam", "zbsrgemm", "zbsrgemm_buffer_size", "zcsrgemm_numeric",
]

#: The largest block dimension of rocSPARSE's bsrgeam and multiplying bsrgemm kernels (not_implemented beyond).
MAX_BLOCK_DIM = 32
_PATTERN = np.dtype(np.float64)  # the value type of stages without values (csrgemm_nnz's choice)


@dataclass
class BsrgemmInfo(CsrgemmInfo):
    """What ``bsrgemm_buffer_size`` records in ``info_C`` (rocSPARSE's ``csrgemm_info``, which it recreates):
    ``initialized`` once the call succeeded.  Later stages ask an initialized info for ``buffer_size`` bytes
    of temp_buffer, any other for a non-null one.  An info of ``csrgemm_buffer_size`` counts as initialized."""

    initialized: bool = False


# --- argument checks -----------------------------------------------------------------------------------


def _raw_length(c: Call, name: str, lengths: dict[str, int]) -> int:
    """An array's length for ``ROCSPARSE_CHECKARG_ARRAY``: a computed one, else the size argument as it is (a
    negative or non-integer size checks nothing here; its own size check reports it)."""
    if name in lengths:
        return lengths[name]
    v = c[name]
    return int(v) if isinstance(v, (int, np.integer)) and not isinstance(v, bool) else 0


def _checks(c: Call, spec: str, lengths: dict[str, int] | None = None) -> None:
    """rocSPARSE's checks in ``spec``'s order: ``E x`` an enum (dir: rocsparse_direction, else an operation),
    ``S x`` a size, ``B x`` a block dimension (a size, not 0), ``D x`` a descriptor's presence, ``G x`` a
    general descriptor, ``O x`` a sorted one, ``P x`` a pointer (alpha and beta: None in host mode, a null
    pointer in device mode), ``N x`` an nnz out-pointer (device pointer mode only: host mode returns it),
    ``A x len`` an array non-null when ``len`` (a size argument or a key of ``lengths``) is positive, ``C val
    ind ptr rows`` C's value and index arrays for the entries its row pointer holds (read only when one is
    null), ``T x`` operation_none (not_implemented otherwise)."""
    lengths = lengths or {}
    for step in filter(None, spec.split(", ")):
        kind, *names = step.split()
        name = names[0]
        if kind == "E":
            c.enum(name, Direction if name == "dir" else Operation)
        elif kind == "S":
            c.size(name)
        elif kind == "B":
            if c.size(name) == 0:
                raise c.invalid_size(name, "must be positive")
        elif kind == "D":
            check_descr(c[name], name, c.index(name))
        elif kind == "G":
            _general(c, name)
        elif kind == "O" and check_descr(c[name], name, c.index(name)).storage_mode is not StorageMode.sorted:
            raise SparseRequiresSortedStorageError(f"{c.fname} requires sorted storage", arg=name,
                                                   index=c.index(name))
        elif kind == "P" and (_null_scalar(c, name) if name in ("alpha", "beta") else _null(c, name)):
            raise c.invalid_pointer(name)
        elif kind == "N" and not c.host_mode:
            c.pointer(name)
        elif kind == "A":
            c.check_array(name, _raw_length(c, names[1], lengths))
        elif kind == "C" and (_null(c, names[0]) or _null(c, names[1])):
            rows = c.size(names[3])
            count = _nnz_c(c, rows, c.index_dtype(names[2]), names[2])
            c.check_array(names[0], count)
            c.check_array(names[1], count)
        elif kind == "T" and c.enum(name, Operation) is not Operation.none:
            raise SparseNotImplementedError("only operation_none is implemented", arg=name, index=c.index(name))


def _recorded(c: Call, info: MatInfo) -> CsrgemmInfo:
    """The case a buffer-size stage recorded in info_C (invalid_pointer without one)."""
    if not isinstance(info.csrgemm, CsrgemmInfo):
        raise SparseInvalidPointerError("the buffer size stage was not called with this info", arg="info_C",
                                        index=c.index("info_C"))
    return info.csrgemm


def _temp_buffer(c: Call, g: CsrgemmInfo, always_sized: bool = False) -> None:
    """temp_buffer as rocSPARSE's BSR stages check it: ``buffer_size`` bytes of an initialized info (or
    ``always_sized``), else non-null."""
    if always_sized or getattr(g, "initialized", True):
        c.check_array("temp_buffer", g.buffer_size)
    else:
        c.pointer("temp_buffer")


def _no_product(c: Call, k: str, nnz_a: str, nnz_b: str) -> bool:
    return c.size(k) == 0 or c.size(nnz_a) == 0 or c.size(nnz_b) == 0


# --- launches ------------------------------------------------------------------------------------------


def _fill(c: Call, mul: bool, add_d: bool, add_e: bool, alpha: Any, A: _Operand, B: _Operand, beta: Any,
          Dm: _Operand, gamma: Any, E: _Operand, m: int, n: int, c_val: Buffer, row_ptr_c: Buffer,
          col_ind_c: Buffer, c_base: int, bounds: Any, flops: float = 0.0) -> None:
    """csrgemm's fill of C's sorted columns (and values, unless ``c_val`` is empty) for ``alpha A B + beta D +
    gamma E``, over row blocks ``bounds``."""
    moved = float(sum(x.ind.shape[0] for x in (A, B, Dm, E)) + col_ind_c.shape[0]) * col_ind_c.dtype.itemsize
    c.launch(kx.spgemm_fill, mul, add_d, add_e, alpha, A.val, A.ptr, A.ind, A.base, B.val, B.ptr, B.ind, B.base,
             beta, Dm.val, Dm.ptr, Dm.ind, Dm.base, gamma, E.val, E.ptr, E.ind, E.base, n, bounds, c_val, row_ptr_c,
             col_ind_c, c_base, flops=flops, bytes=moved + float(c_val.shape[0] * c_val.dtype.itemsize))


def _rebased(src: np.ndarray, shift: int, dst: np.ndarray) -> None:
    np.subtract(src, shift, out=dst, casting="unsafe")


def _copy_columns(c: Call, src: str, dst: str, count: int, base_in: int, base_out: int, itype: np.dtype[Any]) -> None:
    """rocSPARSE's copy of D's column indices to C's (C's index base), skipped when they are one array."""
    if count == 0 or c.ptr(src) == c.ptr(dst):
        return
    c.launch(_rebased, c.array(src, count, itype), base_in - base_out, c.array(dst, count, itype),
             bytes=float(2 * count * itype.itemsize))


def _copy_scale(c: Call, src: str, dst: str, count: int) -> None:
    """``dst := beta src`` over ``count`` values."""
    if count:
        c.launch(kp.copy_scale, c.scalar("beta"), c.array(src, count), c.array(dst, count),
                 flops=float(count) * (6.0 if c.dtype.kind == "c" else 1.0), bytes=float(2 * count * c.dtype.itemsize))


# --- csrgemm_symbolic / csrgemm_numeric ----------------------------------------------------------------


def _csrgemm_symbolic(c: Call) -> None:
    info = check_info(c["info_C"], "info_C", c.index("info_C"))
    _checks(c, "E trans_A, E trans_B, S m, S n, S k, S nnz_A, S nnz_B, S nnz_D, S nnz_C")
    g = _recorded(c, info)
    mul, add = g.mul, g.add
    m, n, kd, nnz_a, nnz_b, nnz_d, nnz_c = (c.size(x) for x in ("m", "n", "k", "nnz_A", "nnz_B", "nnz_D", "nnz_C"))
    no_product = _no_product(c, "k", "nnz_A", "nnz_B")
    if m == 0 or n == 0 or nnz_c == 0 or (mul and no_product and (nnz_d == 0 or not add)) or (
            add and not mul and nnz_d == 0):
        return
    if mul:
        _checks(c, "D descr_A, D descr_B, A csr_row_ptr_A m, A csr_col_ind_A nnz_A, A csr_row_ptr_B k, "
                   "A csr_col_ind_B nnz_B")
    if add:
        _checks(c, "D descr_D, A csr_row_ptr_D m, A csr_col_ind_D nnz_D")
    _checks(c, "D descr_C, P csr_row_ptr_C, P csr_col_ind_C" + (", P temp_buffer" if mul else ""))
    itype = c.index_dtype("csr_row_ptr_C", "csr_col_ind_C")
    c_base = int(c["descr_C"].base)
    if not mul:
        if add:  # C's structure is D's
            _copy_columns(c, "csr_col_ind_D", "csr_col_ind_C", nnz_d, int(c["descr_D"].base), c_base,
                          c.index_dtype("csr_col_ind_D", "csr_col_ind_C"))
        return
    _checks(c, "T trans_A, T trans_B")
    A, B, Dm, itype, dtype = _gemm_operands(c, mul, add, m, kd, nnz_a, nnz_b, nnz_d, False)
    E = _Operand.empty(itype, dtype)
    row_ptr_c = c.array("csr_row_ptr_C", m + 1, itype)
    check_operands(c, mul, add, False, A, B, Dm, E, n)  # checking mode
    check_offsets(c, row_ptr_c, c_base, nnz_c)
    one = np.ones(1, dtype)
    _fill(c, mul, add, False, one, A, B, one, Dm, one, E, m, n, Buffer(0, dtype, (0,)), row_ptr_c,
          c.array("csr_col_ind_C", nnz_c, itype), c_base, _row_blocks(c, A.ptr, A.base, m, n, dtype.itemsize))


CSRGEMM_SYMBOLIC = Routine(
    "csrgemm_symbolic",
    ("trans_A", "trans_B", "m", "n", "k", "descr_A", "nnz_A", "csr_row_ptr_A", "csr_col_ind_A", "descr_B", "nnz_B",
     "csr_row_ptr_B", "csr_col_ind_B", "descr_D", "nnz_D", "csr_row_ptr_D", "csr_col_ind_D", "descr_C", "nnz_C",
     "csr_row_ptr_C", "csr_col_ind_C", "info_C", "temp_buffer"), _csrgemm_symbolic,
    "C's sorted columns for C := op(A) op(B) + D after csrgemm_buffer_size and csrgemm_nnz (the terms info_C "
    "recorded; D's columns copied when only D takes part).")

csrgemm_symbolic = bind(CSRGEMM_SYMBOLIC, None)


# Checks of csrgemm_numeric after its quick return, by case (mul, add); then those of its core.
_NUMERIC_CHECKS = {
    (True, True): "D descr_A, D descr_B, A csr_val_A nnz_A, A csr_row_ptr_A rows_A, A csr_col_ind_A nnz_A, "
                  "A csr_val_B nnz_B, A csr_row_ptr_B rows_B, A csr_col_ind_B nnz_B, D descr_D, A csr_val_D nnz_D, "
                  "A csr_row_ptr_D m, A csr_col_ind_D nnz_D, D descr_C, A csr_val_C nnz_C, A csr_row_ptr_C m, "
                  "A csr_col_ind_C nnz_C, P alpha, P beta, P temp_buffer",
    (True, False): "D descr_A, D descr_B, A csr_val_A nnz_A, A csr_row_ptr_A rows_A, A csr_col_ind_A nnz_A, "
                   "A csr_val_B nnz_B, A csr_col_ind_B nnz_B, A csr_row_ptr_B rows_B, D descr_C, A csr_val_C nnz_C, "
                   "A csr_row_ptr_C m, A csr_col_ind_C nnz_C, P alpha, P temp_buffer",
    (False, True): "P beta, D descr_D, A csr_val_D nnz_D, A csr_row_ptr_D m, A csr_col_ind_D nnz_D, D descr_C, "
                   "A csr_val_C nnz_C, A csr_row_ptr_C m, A csr_col_ind_C nnz_C",
    (False, False): "D descr_C, A csr_val_C nnz_C, A csr_row_ptr_C m, A csr_col_ind_C nnz_C",
}
_NUMERIC_CORE = {
    (True, True): "G descr_A, G descr_B, G descr_C, G descr_D, T trans_A, T trans_B",
    (True, False): "G descr_A, G descr_B, G descr_C, T trans_A, T trans_B",
    (False, True): "G descr_C, G descr_D",
    (False, False): "G descr_C",
}


def _csrgemm_numeric(c: Call) -> None:
    _checks(c, "E trans_A, E trans_B, S m, S n, S k, S nnz_A, S nnz_B, S nnz_D, S nnz_C")
    g = _recorded(c, check_info(c["info_C"], "info_C", c.index("info_C")))
    mul, add = g.mul, g.add
    m, n, kd, nnz_a, nnz_b, nnz_d, nnz_c = (c.size(x) for x in ("m", "n", "k", "nnz_A", "nnz_B", "nnz_D", "nnz_C"))
    no_product = _no_product(c, "k", "nnz_A", "nnz_B")
    if m == 0 or n == 0 or (mul and add and no_product and nnz_d == 0) or (
            mul and not add and (no_product or nnz_c == 0)) or (add and not mul and (nnz_d == 0 or nnz_c == 0)):
        return
    ops = [c.enum(x, Operation) for x in ("trans_A", "trans_B")]
    lengths = {"rows_A": m if ops[0] is Operation.none else kd, "rows_B": kd if ops[1] is Operation.none else n}
    _checks(c, _NUMERIC_CHECKS[(mul, add)], lengths)
    _checks(c, _NUMERIC_CORE[(mul, add)])
    if not mul:
        if add:  # C's values are beta D's, entry by entry
            _copy_scale(c, "csr_val_D", "csr_val_C", nnz_d)
        return
    A, B, Dm, itype, dtype = _gemm_operands(c, mul, add, m, kd, nnz_a, nnz_b, nnz_d, True)
    itype = c.index_dtype("csr_row_ptr_C", "csr_col_ind_C", "csr_row_ptr_A")
    one = np.ones(1, dtype)
    Co = _operand(c, c["descr_C"], m, nnz_c, "csr_row_ptr_C", "csr_col_ind_C", "csr_val_C", itype, dtype)
    # checking mode: the operands, and C's structure, which places the values
    check_operands(c, mul, add, False, A, B, Dm, _Operand.empty(itype, dtype), n)
    check_csr(c, Co.ptr, Co.ind, Co.base, nnz_c, n)
    products = float(nnz_a * max(1, nnz_b // max(1, kd))) + (nnz_d if add else 0)
    c.launch(kg.spgemm_numeric, mul, add, c.scalar("alpha"), A.val, A.ptr, A.ind, A.base, B.val, B.ptr, B.ind, B.base,
             c.scalar("beta") if add else one, Dm.val, Dm.ptr, Dm.ind, Dm.base, n,
             _row_blocks(c, A.ptr, A.base, m, n, dtype.itemsize), Co.val, Co.ptr, Co.ind, Co.base,
             flops=products * (8.0 if dtype.kind == "c" else 2.0),
             bytes=float((nnz_c + nnz_a + nnz_b + nnz_d) * (dtype.itemsize + itype.itemsize)))


CSRGEMM_NUMERIC = Routine(
    "csrgemm_numeric",
    ("trans_A", "trans_B", "m", "n", "k", "alpha", "descr_A", "nnz_A", "csr_val_A", "csr_row_ptr_A", "csr_col_ind_A",
     "descr_B", "nnz_B", "csr_val_B", "csr_row_ptr_B", "csr_col_ind_B", "beta", "descr_D", "nnz_D", "csr_val_D",
     "csr_row_ptr_D", "csr_col_ind_D", "descr_C", "nnz_C", "csr_val_C", "csr_row_ptr_C", "csr_col_ind_C", "info_C",
     "temp_buffer"), _csrgemm_numeric,
    "C's values for C := alpha op(A) op(B) + beta D in the structure csrgemm_symbolic made (repeatable with new "
    "values; equal to csrgemm's bitwise).")

scsrgemm_numeric = bind(CSRGEMM_NUMERIC, S)
dcsrgemm_numeric = bind(CSRGEMM_NUMERIC, D)
ccsrgemm_numeric = bind(CSRGEMM_NUMERIC, C)
zcsrgemm_numeric = bind(CSRGEMM_NUMERIC, Z)


# --- BSR operands ----------------------------------------------------------------------------------------


def _pattern(c: Call, x: str, rows: int, nnzb: int, itype: np.dtype[Any]) -> _Operand:
    """The block pattern of BSR matrix ``x`` (A, B, D) as a CSR operand without values."""
    return _operand(c, c[f"descr_{x}"], rows, nnzb, f"bsr_row_ptr_{x}", f"bsr_col_ind_{x}", None, itype, _PATTERN)


def _no_pattern(itype: np.dtype[Any]) -> _Operand:
    return _Operand.empty(itype, _PATTERN)


def _blocks(c: Call, name: str | None, nnzb: int, bd: int, flat: bool) -> Buffer:
    """A BSR value array: ``(nnzb, bd, bd)`` blocks in storage order (``flat``: ``nnzb bd^2`` values)."""
    shape = (nnzb * bd * bd,) if flat else (nnzb, bd, bd)
    if name is None or nnzb == 0:
        return Buffer(0, c.dtype, (0,) if flat else (0, bd, bd))
    return Buffer(c.ptr(name), c.dtype, shape, name=name, owner=c[name])


def _bsr_product(c: Call, mul: bool, add_d: bool, add_e: bool, alpha: Any, A: _Operand, a_val: str | None,
                 B: _Operand, b_val: str | None, beta: Any, Dm: _Operand, d_val: str | None, gamma: Any, E: _Operand,
                 e_val: str | None, mb: int, nb: int, bd: int, nnzb_c: int, itype: np.dtype[Any],
                 flops: float) -> None:
    """Fill C (``bsr_*_C``, ``nnzb_c`` blocks in the structure of its row pointer) with ``alpha A B (mul) +
    beta D (add_d) + gamma E (add_e)`` of the block patterns given: csrgemm's fill, values and all, for 1 x 1
    blocks; its columns, then the blocks' values, for larger ones."""
    c_base = int(c["descr_C"].base)
    row_ptr_c = c.array("bsr_row_ptr_C", mb + 1, itype)
    col_ind_c = c.array("bsr_col_ind_C", nnzb_c, itype)
    # checking mode: the block patterns, and C's row pointer, which places the blocks
    check_operands(c, mul, add_d, add_e, A, B, Dm, E, nb)
    check_offsets(c, row_ptr_c, c_base, nnzb_c)
    first = A if mul else Dm
    bounds = _row_blocks(c, first.ptr, first.base, mb, nb, c.dtype.itemsize)
    named = ((A, a_val), (B, b_val), (Dm, d_val), (E, e_val))
    if bd == 1:
        ops = [_Operand(x.ptr, x.ind, x.base, _blocks(c, v, x.ind.shape[0], 1, True)) for x, v in named]
        _fill(c, mul, add_d, add_e, alpha, ops[0], ops[1], beta, ops[2], gamma, ops[3], mb, nb,
              _blocks(c, "bsr_val_C", nnzb_c, 1, True), row_ptr_c, col_ind_c, c_base, bounds, flops)
        return
    one = np.ones(1, _PATTERN)
    _fill(c, mul, add_d, add_e, one, A, B, one, Dm, one, E, mb, nb, Buffer(0, _PATTERN, (0,)), row_ptr_c, col_ind_c,
          c_base, bounds)
    vals = [_blocks(c, v, x.ind.shape[0], bd, False) for x, v in named]
    col_major = c.enum("dir", Direction) is Direction.column
    c.launch(kp.bsr_block_values, mul, add_d, add_e, col_major, alpha, vals[0], A.ptr, A.ind, A.base, vals[1], B.ptr,
             B.ind, B.base, beta, vals[2], Dm.ptr, Dm.ind, Dm.base, gamma, vals[3], E.ptr, E.ind, E.base, nb, bounds,
             _blocks(c, "bsr_val_C", nnzb_c, bd, False), row_ptr_c, col_ind_c, c_base, flops=flops,
             bytes=float(sum(v.shape[0] for v in vals) + nnzb_c) * bd * bd * c.dtype.itemsize)


# --- bsrgeam ---------------------------------------------------------------------------------------------

_GEAM_HEAD = ("D descr_A, D descr_B, D descr_C, G descr_A, G descr_B, G descr_C, O descr_A, O descr_B, O descr_C, "
              "E dir, S mb, S nb, B block_dim, S nnzb_A, S nnzb_B")


def _bsrgeam_nnzb(c: Call) -> Any:
    _checks(c, f"{_GEAM_HEAD}, A bsr_row_ptr_C mb, N nnzb_C")
    mb, nb, nnzb_a, nnzb_b = (c.size(x) for x in ("mb", "nb", "nnzb_A", "nnzb_B"))
    names = ["bsr_row_ptr_A", "bsr_col_ind_A", "bsr_row_ptr_B", "bsr_col_ind_B", "bsr_row_ptr_C"]
    itype = c.index_dtype(*names)
    c_base = int(c["descr_C"].base)
    out = ("bsr_row_ptr_C", "nnzb_C")
    if mb == 0 or nb == 0 or (nnzb_a == 0 and nnzb_b == 0):
        return _zero_nnz(c, mb, c_base, itype, fill_ptr=nnzb_a == 0 and nnzb_b == 0, out=out)
    _checks(c, "A bsr_row_ptr_A mb, A bsr_col_ind_A nnzb_A, A bsr_row_ptr_B mb, A bsr_col_ind_B nnzb_B")
    A, B = _pattern(c, "A", mb, nnzb_a, itype), _pattern(c, "B", mb, nnzb_b, itype)
    empty = _no_pattern(itype)
    return _structure(c, mb, nb, False, True, True, empty, empty, A, B, c_base, itype, _PATTERN, out)


bsrgeam_nnzb = bind(Routine(
    "bsrgeam_nnzb",
    ("dir", "mb", "nb", "block_dim", "descr_A", "nnzb_A", "bsr_row_ptr_A", "bsr_col_ind_A", "descr_B", "nnzb_B",
     "bsr_row_ptr_B", "bsr_col_ind_B", "descr_C", "bsr_row_ptr_C", "nnzb_C"), _bsrgeam_nnzb,
    "C's block row pointer for C := alpha A + beta B (BSR, sorted); returns nnzb_C in host pointer mode, writes it "
    "to the nnzb_C device pointer in device pointer mode."), None)


def _bsrgeam(c: Call) -> None:
    _checks(c, _GEAM_HEAD)
    mb, nb, bd, nnzb_a, nnzb_b = (c.size(x) for x in ("mb", "nb", "block_dim", "nnzb_A", "nnzb_B"))
    if mb == 0 or nb == 0 or (nnzb_a == 0 and nnzb_b == 0):
        return
    _checks(c, "P alpha, A bsr_val_A nnzb_A, A bsr_row_ptr_A mb, A bsr_col_ind_A nnzb_A, P beta, "
               "A bsr_val_B nnzb_B, A bsr_row_ptr_B mb, A bsr_col_ind_B nnzb_B, A bsr_row_ptr_C mb, "
               "C bsr_val_C bsr_col_ind_C bsr_row_ptr_C mb")
    if bd > MAX_BLOCK_DIM:
        raise SparseNotImplementedError(f"block_dim > {MAX_BLOCK_DIM} is not implemented", arg="block_dim",
                                        index=c.index("block_dim"))
    itype = c.index_dtype("bsr_row_ptr_A", "bsr_col_ind_A", "bsr_row_ptr_B", "bsr_col_ind_B", "bsr_row_ptr_C",
                          "bsr_col_ind_C")
    nnzb_c = _nnz_c(c, mb, itype, "bsr_row_ptr_C")
    if nnzb_c == 0:
        return
    A, B = _pattern(c, "A", mb, nnzb_a, itype), _pattern(c, "B", mb, nnzb_b, itype)
    empty = _no_pattern(itype)
    flops = float((nnzb_a + nnzb_b) * bd * bd) * (4.0 if c.dtype.kind == "c" else 1.0) * 2
    _bsr_product(c, False, True, True, np.ones(1, c.dtype), empty, None, empty, None, c.scalar("alpha"), A,
                 "bsr_val_A", c.scalar("beta"), B, "bsr_val_B", mb, nb, bd, nnzb_c, itype, flops)


BSRGEAM = Routine(
    "bsrgeam",
    ("dir", "mb", "nb", "block_dim", "alpha", "descr_A", "nnzb_A", "bsr_val_A", "bsr_row_ptr_A", "bsr_col_ind_A",
     "beta", "descr_B", "nnzb_B", "bsr_val_B", "bsr_row_ptr_B", "bsr_col_ind_B", "descr_C", "bsr_val_C",
     "bsr_row_ptr_C", "bsr_col_ind_C"), _bsrgeam,
    "C := alpha A + beta B for mb x nb BSR matrices (sorted, general), after bsrgeam_nnzb.")

sbsrgeam = bind(BSRGEAM, S)
dbsrgeam = bind(BSRGEAM, D)
cbsrgeam = bind(BSRGEAM, C)
zbsrgeam = bind(BSRGEAM, Z)


# --- bsrgemm ---------------------------------------------------------------------------------------------

_BSR_HEAD = "E dir, E trans_A, E trans_B, S mb, S nb"
_BSR_SIZES = f"{_BSR_HEAD}, S kb, B block_dim"
# bsrgemm_buffer_size's checks by case (after the handle's), before its quick return
_BUFFER_CHECKS = {
    (True, True): f"{_BSR_SIZES}, S nnzb_A, S nnzb_B, S nnzb_D, D descr_A, D descr_B, D descr_D, P alpha, P beta, "
                  "A bsr_row_ptr_A mb, A bsr_row_ptr_B kb, A bsr_row_ptr_D mb, A bsr_col_ind_A nnzb_A, "
                  "A bsr_col_ind_B nnzb_B, A bsr_col_ind_D nnzb_D, G descr_A, G descr_B, G descr_D, T trans_A, "
                  "T trans_B",
    (True, False): f"{_BSR_SIZES}, S nnzb_A, S nnzb_B, D descr_A, D descr_B, P alpha, A bsr_row_ptr_A mb, "
                   "A bsr_row_ptr_B kb, A bsr_col_ind_A nnzb_A, A bsr_col_ind_B nnzb_B, G descr_A, G descr_B, "
                   "T trans_A, T trans_B",
    (False, True): f"{_BSR_HEAD}, B block_dim, P beta, A bsr_row_ptr_D mb, A bsr_col_ind_D nnzb_D, D descr_D, "
                   "G descr_D, S nnzb_D",  # kb is not checked here
    (False, False): _BSR_SIZES,
}


def _bsrgemm_case(c: Call) -> MatInfo:
    """bsrgemm_buffer_size's first steps, before even the handle check: info_C (invalid_pointer when null), then
    the case it records there, in a new info (a failed call leaves it, not initialized)."""
    info = check_info(c["info_C"], "info_C", c.index("info_C"))
    nonzero = {x: isinstance(c[x], (int, np.integer)) and not isinstance(c[x], bool) and c[x] != 0
               for x in ("kb", "nnzb_A", "nnzb_B", "nnzb_D")}
    mul = not _null_scalar(c, "alpha") and nonzero["kb"] and nonzero["nnzb_A"] and nonzero["nnzb_B"]
    add = not _null_scalar(c, "beta") and nonzero["nnzb_D"]
    info.csrgemm = BsrgemmInfo(bool(mul), bool(add), 0)
    return info


def _bsrgemm_buffer_size(c: Call) -> int:
    info = _bsrgemm_case(c)
    g = info.csrgemm
    mul, add = g.mul, g.add
    _checks(c, _BUFFER_CHECKS[(mul, add)])
    mb, nb = c.size("mb"), c.size("nb")
    if mul and add:
        quick = mb == 0 or nb == 0 or ((c.size("nnzb_A") == 0 or c.size("nnzb_B") == 0) and c.size("nnzb_D") == 0)
    elif mul:
        quick = mb == 0 or nb == 0 or _no_product(c, "kb", "nnzb_A", "nnzb_B")
    elif add:
        quick = mb == 0 or c.size("nnzb_D") == 0
    else:
        quick = False
        if _null_scalar(c, "alpha") and _null_scalar(c, "beta"):
            raise SparseInvalidPointerError("alpha and beta are both null", arg="alpha", index=c.index("alpha"))
    # csrgemm's bytes (8 a block row) and rocSPARSE's extra 256-byte aligned index per block of A, for a product
    # (the stages never read temp_buffer: they check it as rocSPARSE does)
    size = 0
    if mul and not quick:
        itype = c.index_dtype("bsr_row_ptr_A", "bsr_col_ind_A", "bsr_row_ptr_B", "bsr_col_ind_B")
        size = 8 * (mb + 1) + _align256(itype.itemsize * max(1, c.size("nnzb_A")))
    info.csrgemm = BsrgemmInfo(mul, add, size, True)
    return size


_BSRGEMM_BS_PARAMS = ("dir", "trans_A", "trans_B", "mb", "nb", "kb", "block_dim", "alpha", "descr_A", "nnzb_A",
                      "bsr_row_ptr_A", "bsr_col_ind_A", "descr_B", "nnzb_B", "bsr_row_ptr_B", "bsr_col_ind_B", "beta",
                      "descr_D", "nnzb_D", "bsr_row_ptr_D", "bsr_col_ind_D", "info_C")
BSRGEMM_BUFFER_SIZE = Routine("bsrgemm_buffer_size", _BSRGEMM_BS_PARAMS, _bsrgemm_buffer_size,
                              "Bytes of temp_buffer bsrgemm_nnzb and bsrgemm need (returned); records in info_C "
                              "whether A B (alpha non-null, kb, nnzb_A, nnzb_B non-zero) and D (beta non-null, "
                              "nnzb_D non-zero) take part (info_C is checked and written before the handle, as "
                              "rocSPARSE).", before_handle=_bsrgemm_case)

sbsrgemm_buffer_size = bind(BSRGEMM_BUFFER_SIZE, S)
dbsrgemm_buffer_size = bind(BSRGEMM_BUFFER_SIZE, D)
cbsrgemm_buffer_size = bind(BSRGEMM_BUFFER_SIZE, C)
zbsrgemm_buffer_size = bind(BSRGEMM_BUFFER_SIZE, Z)

# bsrgemm_nnzb's checks by case (after info_C's and the handle's), before its quick return
_NNZB_CHECKS = {
    (True, True): f"{_BSR_SIZES}, S nnzb_A, S nnzb_B, S nnzb_D, D descr_A, D descr_B, D descr_D, D descr_C, "
                  "N nnzb_C, A bsr_row_ptr_A mb, A bsr_row_ptr_B kb, A bsr_row_ptr_D mb, A bsr_row_ptr_C mb, "
                  "A bsr_col_ind_A nnzb_A, A bsr_col_ind_B nnzb_B, A bsr_col_ind_D nnzb_D, G descr_A, G descr_B, "
                  "G descr_D, G descr_C",
    (True, False): f"{_BSR_SIZES}, S nnzb_A, S nnzb_B, A bsr_row_ptr_A mb, A bsr_row_ptr_B kb, A bsr_row_ptr_C mb, "
                   "D descr_A, D descr_B, D descr_C, N nnzb_C, A bsr_col_ind_A nnzb_A, A bsr_col_ind_B nnzb_B, "
                   "G descr_A, G descr_B, G descr_C",
    (False, True): f"{_BSR_SIZES}, S nnzb_D, D descr_D, D descr_C, N nnzb_C, A bsr_row_ptr_D mb, "
                   "A bsr_row_ptr_C mb, A bsr_col_ind_D nnzb_D, G descr_C, G descr_D",
    (False, False): f"{_BSR_SIZES}, A bsr_row_ptr_C mb, N nnzb_C",
}


def _bsrgemm_nnzb(c: Call) -> Any:
    g = _gemm_info(c)
    mul, add = g.mul, g.add
    _checks(c, _NNZB_CHECKS[(mul, add)])
    mb, nb, kb = c.size("mb"), c.size("nb"), c.size("kb")
    names = ["bsr_row_ptr_C"] + [f"bsr_{a}_{x}" for x, used in (("A", mul), ("B", mul), ("D", add)) if used
                                 for a in ("row_ptr", "col_ind")]
    itype = c.index_dtype(*names)
    out = ("bsr_row_ptr_C", "nnzb_C")
    if not (mul or add) or mb == 0 or nb == 0 or (mul and not add and _no_product(c, "kb", "nnzb_A", "nnzb_B")):
        # nnzb_C = 0 and, when given, C's row pointer at descr_C's base (descr_C is only read then)
        fill = not _null(c, "bsr_row_ptr_C")
        base = int(check_descr(c["descr_C"], "descr_C", c.index("descr_C")).base) if fill else 0
        return _zero_nnz(c, mb, base, itype, fill_ptr=fill, out=out)
    if mul:
        _checks(c, "T trans_A, T trans_B")
    _temp_buffer(c, g, always_sized=not (mul and add))
    A = _pattern(c, "A", mb, c.size("nnzb_A"), itype) if mul else _no_pattern(itype)
    B = _pattern(c, "B", kb, c.size("nnzb_B"), itype) if mul else _no_pattern(itype)
    Dm = _pattern(c, "D", mb, c.size("nnzb_D"), itype) if add else _no_pattern(itype)
    return _structure(c, mb, nb, mul, add, False, A, B, Dm, _no_pattern(itype), int(c["descr_C"].base), itype,
                      _PATTERN, out)


bsrgemm_nnzb = bind(Routine(
    "bsrgemm_nnzb",
    ("dir", "trans_A", "trans_B", "mb", "nb", "kb", "block_dim", "descr_A", "nnzb_A", "bsr_row_ptr_A",
     "bsr_col_ind_A", "descr_B", "nnzb_B", "bsr_row_ptr_B", "bsr_col_ind_B", "descr_D", "nnzb_D", "bsr_row_ptr_D",
     "bsr_col_ind_D", "descr_C", "bsr_row_ptr_C", "nnzb_C", "info_C", "temp_buffer"), _bsrgemm_nnzb,
    "C's block row pointer for C := alpha A B + beta D (BSR); returns nnzb_C in host pointer mode, writes it to "
    "the nnzb_C device pointer in device pointer mode (info_C is checked before the handle, as rocSPARSE).",
    before_handle=_gemm_info), None)

# bsrgemm's checks by case (after the common ones), before its quick return
_C_ARRAYS = "C bsr_val_C bsr_col_ind_C bsr_row_ptr_C mb"
_GEMM_CHECKS = {
    "scal": f"S nnzb_D, D descr_D, D descr_C, P beta, A bsr_val_D nnzb_D, A bsr_row_ptr_D mb, "
            f"A bsr_col_ind_D nnzb_D, A bsr_row_ptr_C mb, {_C_ARRAYS}, G descr_D, G descr_C",
    "multadd": f"S nnzb_A, S nnzb_B, S nnzb_D, D descr_A, D descr_B, D descr_D, D descr_C, P alpha, P beta, "
               f"A bsr_row_ptr_A mb, A bsr_row_ptr_B kb, A bsr_row_ptr_D mb, A bsr_row_ptr_C mb, "
               f"A bsr_val_A nnzb_A, A bsr_col_ind_A nnzb_A, A bsr_val_B nnzb_B, A bsr_col_ind_B nnzb_B, "
               f"A bsr_val_D nnzb_D, A bsr_col_ind_D nnzb_D, {_C_ARRAYS}, G descr_A, G descr_B, G descr_C, G descr_D",
    "mult": f"S nnzb_A, S nnzb_B, D descr_A, D descr_B, D descr_C, P alpha, A bsr_row_ptr_A mb, A bsr_row_ptr_B kb, "
            f"A bsr_row_ptr_C mb, A bsr_val_A nnzb_A, A bsr_col_ind_A nnzb_A, A bsr_val_B nnzb_B, "
            f"A bsr_col_ind_B nnzb_B, {_C_ARRAYS}, G descr_A, G descr_B, G descr_C",
}


def _bsrgemm(c: Call) -> None:
    info = check_info(c["info_C"], "info_C", c.index("info_C"))
    _checks(c, _BSR_SIZES)
    g = _recorded(c, info)
    _temp_buffer(c, g)
    mb, nb, kb, bd = c.size("mb"), c.size("nb"), c.size("kb"), c.size("block_dim")
    case = "scal" if (not g.mul or kb == 0) and g.add else ("multadd" if g.add else "mult") if g.mul else None
    if case is None:
        return  # C = 0: nothing is written
    _checks(c, _GEMM_CHECKS[case])
    nnzb_d = c.size("nnzb_D") if case != "mult" else 0
    no_product = case == "scal" or _no_product(c, "kb", "nnzb_A", "nnzb_B")
    if mb == 0 or nb == 0 or (no_product and (nnzb_d == 0 or case == "mult")):
        return
    if case != "scal":
        _checks(c, "T trans_A, T trans_B")
        if case == "multadd":
            _temp_buffer(c, g)
    used = {"scal": "D", "multadd": "ABD", "mult": "AB"}[case]
    itype = c.index_dtype("bsr_row_ptr_C", "bsr_col_ind_C",
                          *(f"bsr_{a}_{x}" for x in used for a in ("row_ptr", "col_ind")))
    if case == "scal":  # C's structure is D's, its values beta D's
        _copy_columns(c, "bsr_col_ind_D", "bsr_col_ind_C", nnzb_d, int(c["descr_D"].base), int(c["descr_C"].base),
                      itype)
        _copy_scale(c, "bsr_val_D", "bsr_val_C", nnzb_d * bd * bd)
        return
    if bd > MAX_BLOCK_DIM:
        raise SparseNotImplementedError(f"block_dim > {MAX_BLOCK_DIM} is not implemented", arg="block_dim",
                                        index=c.index("block_dim"))
    nnzb_c = _nnz_c(c, mb, itype, "bsr_row_ptr_C")
    if nnzb_c == 0:
        return
    add = case == "multadd"
    nnzb_a, nnzb_b = c.size("nnzb_A"), c.size("nnzb_B")
    A, B = _pattern(c, "A", mb, nnzb_a, itype), _pattern(c, "B", kb, nnzb_b, itype)
    Dm = _pattern(c, "D", mb, nnzb_d, itype) if add else _no_pattern(itype)
    one = np.ones(1, c.dtype)
    flops = float(nnzb_a * max(1, nnzb_b // max(1, kb)) * bd ** 3) * (8.0 if c.dtype.kind == "c" else 2.0)
    _bsr_product(c, True, add, False, c.scalar("alpha"), A, "bsr_val_A", B, "bsr_val_B",
                 c.scalar("beta") if add else one, Dm, "bsr_val_D" if add else None, one, _no_pattern(itype), None,
                 mb, nb, bd, nnzb_c, itype, flops)


BSRGEMM = Routine(
    "bsrgemm",
    ("dir", "trans_A", "trans_B", "mb", "nb", "kb", "block_dim", "alpha", "descr_A", "nnzb_A", "bsr_val_A",
     "bsr_row_ptr_A", "bsr_col_ind_A", "descr_B", "nnzb_B", "bsr_val_B", "bsr_row_ptr_B", "bsr_col_ind_B", "beta",
     "descr_D", "nnzb_D", "bsr_val_D", "bsr_row_ptr_D", "bsr_col_ind_D", "descr_C", "bsr_val_C", "bsr_row_ptr_C",
     "bsr_col_ind_C", "info_C", "temp_buffer"), _bsrgemm,
    "C := alpha A B + beta D (BSR, sorted output block columns), after bsrgemm_buffer_size and bsrgemm_nnzb.")

sbsrgemm = bind(BSRGEMM, S)
dbsrgemm = bind(BSRGEMM, D)
cbsrgemm = bind(BSRGEMM, C)
zbsrgemm = bind(BSRGEMM, Z)
