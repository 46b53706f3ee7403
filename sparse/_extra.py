"""Extra: csrgemm (``C := alpha A B + beta D``) and csrgeam (``C := alpha A + beta B``), in rocSPARSE's stages.

csrgemm runs as rocSPARSE's three calls: ``csrgemm_buffer_size`` records in ``info_C`` what
the product does (``mul`` when alpha is non-null and ``k``, ``nnz_A``, ``nnz_B`` are non-zero;
``add`` when beta is non-null and ``nnz_D`` is non-zero) and returns the temp_buffer bytes;
``csrgemm_nnz`` fills C's row pointer and returns ``nnz_C``; ``csrgemm`` fills C's sorted
columns and values.  Only ``operation_none`` and general matrices are implemented, as in
rocSPARSE.  As rocSPARSE's, ``csrgemm_buffer_size`` and ``csrgemm_nnz`` check ``info_C`` before
the handle (``csrgemm_buffer_size`` records its case there even when the handle then fails);
``csrgemm`` checks the handle, the operations and sizes first.  A null alpha is None (host mode)
or a 0 pointer; alpha and beta both null is invalid_pointer.  csrgeam: ``csrgeam_nnz`` then
``csrgeam`` (sorted general matrices).

Index arrays are rocsparse_int (int32) for raw pointers, or the DeviceArrays' own type.  In
host pointer mode the nnz stages block and return ``nnz_C``; in device pointer mode they write
it to the ``nnz_C`` device pointer and return None.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

import rocmath
from rocmath.handle import PointerMode
from rocmath.kernel import pool_threads
from rocmath.launch import Buffer
from rocmath.precision import C, D, S, Z

from . import _kernels as k
from . import _kernels_extra as kx
from ._api import Call, Routine, bind, is_null
from ._conversion2 import _span
from ._handle import MatDescr, MatInfo, check_descr, check_info
from ._types import (
    MatrixType,
    Operation,
    SparseInvalidPointerError,
    SparseNotImplementedError,
    SparseRequiresSortedStorageError,
    StorageMode,
)
from ._validate import check_csr, check_offsets

__all__ = [
    "ccsrgeam", "ccsrgemm", "ccsrgemm_buffer_size", "csrgeam_nnz", "csrgemm_nnz", "dcsrgeam", "dcsrgemm",
    "dcsrgemm_buffer_size", "scsrgeam", "scsrgemm", "scsrgemm_buffer_size", "zcsrgeam", "zcsrgemm",
    "zcsrgemm_buffer_size",
]

#: Row blocks of a product: at most this many (each owns a dense accumulator of n entries).
MAX_BLOCKS = 64
#: Bytes of dense accumulator a product may allocate over all its blocks.
ACCUMULATOR_BYTES = 1 << 30


@dataclass
class CsrgemmInfo:
    """What ``csrgemm_buffer_size`` records in ``info_C``."""

    mul: bool
    add: bool
    buffer_size: int


def _general(c: Call, name: str) -> MatDescr:
    d = check_descr(c[name], name, c.index(name))
    if d.type is not MatrixType.general:
        raise SparseNotImplementedError(f"{d.type.name} matrices are not supported", arg=name, index=c.index(name))
    return d


def _null(c: Call, name: str) -> bool:
    return is_null(c[name])


def _null_scalar(c: Call, name: str) -> bool:
    """A null alpha or beta: None in host pointer mode (a 0 there is the value zero), a null pointer in device mode
    (a destroyed handle's mode still counts; without a handle, host mode's rule)."""
    host = getattr(c.handle, "pointer_mode", PointerMode.host) is PointerMode.host
    return c[name] is None if host else is_null(c[name])


def _row_blocks(c: Call, row_ptr: Buffer, base: int, m: int, n: int, itemsize: int) -> rocmath.DeviceArray:
    """Row blocks balanced by the nonzeros of ``row_ptr``'s rows, one per thread: each block makes and
    clears dense arrays of n entries, which costs more than the products of most rows (64 blocks wrote
    300 MB of them for the product of a 10^6-entry Laplacian, whose rows themselves read and write
    about 100 MB), and the threads take the blocks in contiguous shares anyway.  Results do not
    depend on the blocks: rows are independent."""
    per_block = max(1, n * (16 + itemsize))  # markers, columns, accumulator
    nblocks = int(max(1, min(m, pool_threads(), MAX_BLOCKS, ACCUMULATOR_BYTES // per_block)))
    bounds = rocmath.empty(nblocks + 1, np.int64)
    if row_ptr.shape[0] > 1 and m:
        c.launch(k.balanced_row_bounds, row_ptr, base, nblocks, bounds, bytes=k.row_bounds_bytes(nblocks, m))
    else:
        bounds = rocmath.to_device(k.uniform_bounds(m, nblocks))
    return bounds


@dataclass
class _Operand:
    """One CSR operand of a product as kernel arguments (length-0 arrays when it takes no part)."""

    ptr: Buffer
    ind: Buffer
    base: int
    val: Buffer | None = None

    @staticmethod
    def empty(itype: np.dtype[Any], dtype: np.dtype[Any]) -> _Operand:
        return _Operand(Buffer(0, itype, (0,)), Buffer(0, itype, (0,)), 0, Buffer(0, dtype, (0,)))


def check_operands(c: Call, mul: bool, add_d: bool, add_e: bool, A: _Operand, B: _Operand, Dm: _Operand,
                   E: _Operand, n: int) -> None:
    """Checking mode's scans of the operands of ``alpha A B + beta D + gamma E`` that take part, before the kernels
    read them: A's columns index B's rows, B's, D's and E's the ``n`` columns of the result."""
    if mul:
        check_csr(c, A.ptr, A.ind, A.base, A.ind.shape[0], B.ptr.shape[0] - 1)
        check_csr(c, B.ptr, B.ind, B.base, B.ind.shape[0], n)
    for used, op in ((add_d, Dm), (add_e, E)):
        if used:
            check_csr(c, op.ptr, op.ind, op.base, op.ind.shape[0], n)


def _operand(c: Call, descr: MatDescr, rows: int, nnz: int, ptr: str, ind: str, val: str | None, itype: np.dtype[Any],
             dtype: np.dtype[Any]) -> _Operand:
    return _Operand(c.array(ptr, rows + 1, itype), c.array(ind, nnz, itype), int(descr.base),
                    c.array(val, nnz, dtype) if val is not None else Buffer(0, dtype, (0,)))


def _structure(c: Call, m: int, n: int, mul: bool, add_d: bool, add_e: bool, A: _Operand, B: _Operand,
               Dm: _Operand, E: _Operand, c_base: int, itype: np.dtype[Any], dtype: np.dtype[Any],
               out: tuple[str, str] = ("csr_row_ptr_C", "nnz_C")) -> Any:
    """The nnz stage: C's row pointer into ``csr_row_ptr_C``; nnz_C returned (host mode) or written (``out``: the
    names of those two arguments, bsrgemm_nnzb's and bsrgeam_nnzb's for the block patterns)."""
    check_operands(c, mul, add_d, add_e, A, B, Dm, E, n)
    first = A if mul else Dm
    bounds = _row_blocks(c, first.ptr, first.base, m, n, dtype.itemsize)
    counts = rocmath.empty(m, np.int64)
    c.launch(kx.spgemm_count, mul, add_d, add_e, A.ptr, A.ind, A.base, B.ptr, B.ind, B.base, Dm.ptr, Dm.ind, Dm.base,
             E.ptr, E.ind, E.base, n, bounds, counts,
             bytes=float((A.ind.shape[0] + B.ind.shape[0] + Dm.ind.shape[0] + E.ind.shape[0]) * itype.itemsize))
    return _scan(c, counts, c_base, m, itype, out)


def _scan(c: Call, counts: rocmath.DeviceArray, c_base: int, m: int, itype: np.dtype[Any],
          out: tuple[str, str] = ("csr_row_ptr_C", "nnz_C")) -> Any:
    row_ptr_c = c.array(out[0], m + 1, itype)
    if c.host_mode:
        host = np.zeros(1, np.int64)
        c.launch(kx.counts_to_ptr, counts, c_base, row_ptr_c, host, bytes=float((m + 1) * (8 + itype.itemsize))).wait()
        return int(host[0])
    c.launch(kx.counts_to_ptr, counts, c_base, row_ptr_c, c.array(out[1], 1, itype),
             bytes=float((m + 1) * (8 + itype.itemsize)))
    return None


def _zero_nnz(c: Call, m: int, base: int, itype: np.dtype[Any], fill_ptr: bool,
              out: tuple[str, str] = ("csr_row_ptr_C", "nnz_C")) -> Any:
    """An empty C: nnz_C = 0 and (fill_ptr) every row pointer = base."""
    if fill_ptr and not _null(c, out[0]):
        c.launch(_set, c.array(out[0], m + 1, itype), base, bytes=float((m + 1) * itype.itemsize))
    if c.host_mode:
        return 0
    c.launch(_set, c.array(out[1], 1, itype), 0, bytes=float(itype.itemsize))
    return None


def _set(a: np.ndarray, value: int) -> None:
    a[...] = value


def _nnz_c(c: Call, m: int, itype: np.dtype[Any], ptr: str = "csr_row_ptr_C") -> int:
    """C's nonzeros, read from its row pointer on the device (as rocSPARSE does before checking C's arrays)."""
    if m == 0 or _null(c, ptr):
        return 0
    return _span(c, ptr, m, itype)


# --- csrgemm ---------------------------------------------------------------------------------------


def _gemm_info(c: Call) -> CsrgemmInfo:
    """info_C and what csrgemm_buffer_size recorded there (invalid_pointer without either): csrgemm_nnz's
    first checks, before the handle's (rocsparse_csrgemm_nnz.cpp), and csrgemm's after its sizes."""
    info = check_info(c["info_C"], "info_C", c.index("info_C"))
    if not isinstance(info.csrgemm, CsrgemmInfo):
        raise SparseInvalidPointerError("csrgemm_buffer_size was not called with this info", arg="info_C",
                                        index=c.index("info_C"))
    return info.csrgemm


# rocSPARSE's checks of each csrgemm stage, by case (mul, add), in its order: ``E`` an operation enum,
# ``S`` a size, ``D`` a descriptor's presence, ``G`` a general descriptor, ``P`` a pointer (alpha / beta:
# :func:`_null_scalar`), ``A name length`` an array of the size argument ``length``, ``N`` nnz_C (device
# mode), ``C`` C's value and column arrays for the nonzeros its row pointer holds, ``T`` operation_none,
# ``Q`` the quick return (m == 0 or n == 0): the checks after it only run when it is not taken.
_TRANS_SIZES = "E trans_A, E trans_B, S m, S n, S k"
_GEMM_CHECKS = {
    ("buffer_size", True, True):
        f"{_TRANS_SIZES}, S nnz_A, S nnz_B, S nnz_D, D descr_A, D descr_B, D descr_D, P alpha, P beta, "
        "A csr_row_ptr_A m, A csr_row_ptr_B k, A csr_row_ptr_D m, A csr_col_ind_A nnz_A, A csr_col_ind_B nnz_B, "
        "A csr_col_ind_D nnz_D, G descr_A, G descr_B, G descr_D, T trans_A, T trans_B, Q",
    ("buffer_size", True, False):
        f"{_TRANS_SIZES}, S nnz_A, S nnz_B, D descr_A, D descr_B, A csr_row_ptr_A m, A csr_row_ptr_B k, P alpha, "
        "A csr_col_ind_A nnz_A, A csr_col_ind_B nnz_B, G descr_A, G descr_B, T trans_A, T trans_B, Q",
    ("buffer_size", False, True):  # k is not checked here
        "E trans_A, E trans_B, S m, S n, P beta, D descr_D, G descr_D, S nnz_D, A csr_row_ptr_D m, "
        "A csr_col_ind_D nnz_D, Q",
    ("buffer_size", False, False): _TRANS_SIZES,
    ("nnz", True, True):
        f"{_TRANS_SIZES}, S nnz_A, S nnz_B, S nnz_D, D descr_A, D descr_B, D descr_D, D descr_C, N, "
        "A csr_row_ptr_A m, A csr_row_ptr_B k, A csr_row_ptr_D m, A csr_row_ptr_C m, A csr_col_ind_A nnz_A, "
        "A csr_col_ind_B nnz_B, A csr_col_ind_D nnz_D, G descr_A, G descr_B, G descr_D, G descr_C, Q, T trans_A, "
        "T trans_B, P temp_buffer",
    ("nnz", True, False):
        f"{_TRANS_SIZES}, S nnz_A, S nnz_B, A csr_row_ptr_A m, A csr_row_ptr_B k, A csr_row_ptr_C m, D descr_A, "
        "D descr_B, D descr_C, N, A csr_col_ind_A nnz_A, A csr_col_ind_B nnz_B, G descr_A, G descr_B, G descr_C, Q, "
        "T trans_A, T trans_B, P temp_buffer",
    ("nnz", False, True):  # no temp_buffer: C's structure is D's
        f"{_TRANS_SIZES}, S nnz_D, D descr_D, D descr_C, N, A csr_row_ptr_D m, A csr_row_ptr_C m, "
        "A csr_col_ind_D nnz_D, G descr_C, G descr_D, Q",
    ("nnz", False, False): f"{_TRANS_SIZES}, A csr_row_ptr_C m, N",
    # The compute stage checks the operations, m, n, k and info_C before these.
    ("compute", True, True):
        "S nnz_A, S nnz_B, S nnz_D, D descr_A, D descr_B, D descr_D, D descr_C, P alpha, P beta, A csr_row_ptr_A m, "
        "A csr_row_ptr_B k, A csr_row_ptr_D m, A csr_row_ptr_C m, A csr_col_ind_A nnz_A, A csr_col_ind_B nnz_B, "
        "A csr_col_ind_D nnz_D, A csr_val_A nnz_A, A csr_val_B nnz_B, A csr_val_D nnz_D, C, G descr_A, G descr_B, "
        "G descr_D, G descr_C, Q, P temp_buffer, T trans_A, T trans_B",
    ("compute", True, False):
        "S nnz_A, S nnz_B, D descr_A, D descr_B, D descr_C, A csr_row_ptr_A m, A csr_row_ptr_B k, "
        "A csr_row_ptr_C m, P alpha, A csr_val_A nnz_A, A csr_col_ind_A nnz_A, A csr_val_B nnz_B, "
        "A csr_col_ind_B nnz_B, C, G descr_A, G descr_B, G descr_C, Q, P temp_buffer, T trans_A, T trans_B",
    ("compute", False, True):  # no temp_buffer
        "S nnz_D, D descr_C, D descr_D, A csr_val_D nnz_D, A csr_row_ptr_D m, A csr_col_ind_D nnz_D, "
        "A csr_row_ptr_C m, P beta, G descr_C, G descr_D, C, Q",
    ("compute", False, False): "",  # nothing is checked, nothing done
}


def _check_gemm(c: Call, stage: str, mul: bool, add: bool) -> bool:
    """Run rocSPARSE's checks of a csrgemm stage for its (mul, add) case; True when its quick return is taken
    (always, after the checks, when the product neither multiplies nor adds)."""
    for step in filter(None, _GEMM_CHECKS[(stage, mul, add)].split(", ")):
        kind, *names = step.split()
        if kind == "E":
            c.enum(names[0], Operation)
        elif kind == "S":
            c.size(names[0])
        elif kind == "D":
            check_descr(c[names[0]], names[0], c.index(names[0]))
        elif kind == "G":
            _general(c, names[0])
        elif kind == "P" and (_null_scalar(c, names[0]) if names[0] in ("alpha", "beta") else _null(c, names[0])):
            raise c.invalid_pointer(names[0])
        elif kind == "A":
            c.check_array(names[0], c.size(names[1]))
        elif kind == "N" and not c.host_mode:
            c.pointer("nnz_C")
        elif kind == "C" and (_null(c, "csr_val_C") or _null(c, "csr_col_ind_C")):
            nnz_c = _nnz_c(c, c.size("m"), c.index_dtype("csr_row_ptr_C"))
            c.check_array("csr_val_C", nnz_c)
            c.check_array("csr_col_ind_C", nnz_c)
        elif kind == "T" and c.enum(names[0], Operation) is not Operation.none:
            raise SparseNotImplementedError("only operation_none is implemented", arg=names[0],
                                            index=c.index(names[0]))
        elif kind == "Q" and (c.size("m") == 0 or c.size("n") == 0):
            return True
    return not (mul or add)


def _gemm_case(c: Call) -> MatInfo:
    """csrgemm_buffer_size's first steps (rocsparse_csrgemm_buffer_size.cpp), before even the handle check:
    info_C (invalid_pointer when null), then the case it records there (a failed call leaves it)."""
    info = check_info(c["info_C"], "info_C", c.index("info_C"))
    nnz = {name: c.values[name] for name in ("k", "nnz_A", "nnz_B", "nnz_D")}
    mul = not _null_scalar(c, "alpha") and all(isinstance(nnz[x], (int, np.integer)) and nnz[x] != 0
                                                 for x in ("k", "nnz_A", "nnz_B"))
    add = not _null_scalar(c, "beta") and isinstance(nnz["nnz_D"], (int, np.integer)) and nnz["nnz_D"] != 0
    info.csrgemm = CsrgemmInfo(mul, add, 0)
    return info


def _csrgemm_buffer_size(c: Call) -> int:
    info = _gemm_case(c)
    mul, add = info.csrgemm.mul, info.csrgemm.add
    alpha_null, beta_null = _null_scalar(c, "alpha"), _null_scalar(c, "beta")
    quick = _check_gemm(c, "buffer_size", mul, add)
    if alpha_null and beta_null:  # after the operation and size checks
        raise SparseInvalidPointerError("alpha and beta are both null", arg="alpha", index=c.index("alpha"))
    # No buffer when C is empty or only scales D, as rocSPARSE; a product asks for 8 bytes a row (a size of
    # rocmath's own: the stages never read temp_buffer, only check it as rocSPARSE does).
    size = 0 if quick or not mul else 8 * (c.size("m") + 1)
    info.csrgemm = CsrgemmInfo(mul, add, size)
    return size


_GEMM_BS_PARAMS = ("trans_A", "trans_B", "m", "n", "k", "alpha", "descr_A", "nnz_A", "csr_row_ptr_A", "csr_col_ind_A",
                   "descr_B", "nnz_B", "csr_row_ptr_B", "csr_col_ind_B", "beta", "descr_D", "nnz_D", "csr_row_ptr_D",
                   "csr_col_ind_D", "info_C")
CSRGEMM_BUFFER_SIZE = Routine("csrgemm_buffer_size", _GEMM_BS_PARAMS, _csrgemm_buffer_size,
                              "Bytes of temp_buffer csrgemm needs (returned); records mul/add in info_C (info_C is "
                              "checked and written before the handle, as rocSPARSE).", before_handle=_gemm_case)

scsrgemm_buffer_size = bind(CSRGEMM_BUFFER_SIZE, S)
dcsrgemm_buffer_size = bind(CSRGEMM_BUFFER_SIZE, D)
ccsrgemm_buffer_size = bind(CSRGEMM_BUFFER_SIZE, C)
zcsrgemm_buffer_size = bind(CSRGEMM_BUFFER_SIZE, Z)


def _gemm_operands(c: Call, mul: bool, add: bool, m: int, kdim: int, nnz_a: int, nnz_b: int, nnz_d: int,
                   values: bool) -> tuple[_Operand, _Operand, _Operand, np.dtype[Any], np.dtype[Any]]:
    names = ["csr_row_ptr_C"]
    if mul:
        names += ["csr_row_ptr_A", "csr_col_ind_A", "csr_row_ptr_B", "csr_col_ind_B"]
    if add:
        names += ["csr_row_ptr_D", "csr_col_ind_D"]
    itype = c.index_dtype(*names)
    dtype = c.dtype if values else np.dtype(np.float64)
    empty = _Operand.empty(itype, dtype)
    A = _operand(c, c["descr_A"], m, nnz_a, "csr_row_ptr_A", "csr_col_ind_A", "csr_val_A" if values else None, itype,
                 dtype) if mul else empty
    B = _operand(c, c["descr_B"], kdim, nnz_b, "csr_row_ptr_B", "csr_col_ind_B", "csr_val_B" if values else None,
                 itype, dtype) if mul else empty
    Dm = _operand(c, c["descr_D"], m, nnz_d, "csr_row_ptr_D", "csr_col_ind_D", "csr_val_D" if values else None,
                  itype, dtype) if add else empty
    return A, B, Dm, itype, dtype


def _csrgemm_nnz(c: Call) -> Any:
    g = _gemm_info(c)
    quick = _check_gemm(c, "nnz", g.mul, g.add)
    m, n, kdim = c.size("m"), c.size("n"), c.size("k")
    nnz_a, nnz_b = (c.size("nnz_A"), c.size("nnz_B")) if g.mul else (0, 0)
    nnz_d = c.size("nnz_D") if g.add else 0
    A, B, Dm, itype, dtype = _gemm_operands(c, g.mul, g.add, m, kdim, nnz_a, nnz_b, nnz_d, False)
    if quick:
        # nnz_C = 0 and, when given, C's row pointer at descr_C's base (descr_C is only read then).
        fill = not _null(c, "csr_row_ptr_C")
        base = int(check_descr(c["descr_C"], "descr_C", c.index("descr_C")).base) if fill else 0
        return _zero_nnz(c, m, base, itype, fill_ptr=fill)
    return _structure(c, m, n, g.mul, g.add, False, A, B, Dm, _Operand.empty(itype, dtype), int(c["descr_C"].base),
                      itype, dtype)


_GEMM_NNZ_PARAMS = ("trans_A", "trans_B", "m", "n", "k", "descr_A", "nnz_A", "csr_row_ptr_A", "csr_col_ind_A",
                    "descr_B", "nnz_B", "csr_row_ptr_B", "csr_col_ind_B", "descr_D", "nnz_D", "csr_row_ptr_D",
                    "csr_col_ind_D", "descr_C", "csr_row_ptr_C", "nnz_C", "info_C", "temp_buffer")
csrgemm_nnz = bind(Routine("csrgemm_nnz", _GEMM_NNZ_PARAMS, _csrgemm_nnz,
                           "C's row pointer; returns nnz_C in host pointer mode (nnz_C: None or ignored), writes "
                           "it to the nnz_C device pointer in device pointer mode (info_C is checked before the "
                           "handle, as rocSPARSE).", before_handle=_gemm_info), None)


def _csrgemm(c: Call) -> None:
    for step in _TRANS_SIZES.split(", "):  # before info_C, in every case
        _ = c.enum(step[2:], Operation) if step[0] == "E" else c.size(step[2:])
    g = _gemm_info(c)
    if _check_gemm(c, "compute", g.mul, g.add):
        return
    m, n, kdim = c.size("m"), c.size("n"), c.size("k")
    nnz_a, nnz_b = (c.size("nnz_A"), c.size("nnz_B")) if g.mul else (0, 0)
    nnz_d = c.size("nnz_D") if g.add else 0
    A, B, Dm, itype, dtype = _gemm_operands(c, g.mul, g.add, m, kdim, nnz_a, nnz_b, nnz_d, True)
    c_base = int(c["descr_C"].base)
    nnz_c = _nnz_c(c, m, itype)
    if nnz_c == 0:
        return
    one = np.ones(1, dtype)
    alpha = c.scalar("alpha") if g.mul else one
    beta = c.scalar("beta") if g.add else one
    E = _Operand.empty(itype, dtype)
    row_ptr_c = c.array("csr_row_ptr_C", m + 1, itype)
    # checking mode: the operands, and C's row pointer, which places the entries
    check_operands(c, g.mul, g.add, False, A, B, Dm, E, n)
    check_offsets(c, row_ptr_c, c_base, nnz_c)
    first = A if g.mul else Dm
    bounds = _row_blocks(c, first.ptr, first.base, m, n, dtype.itemsize)
    products = float(nnz_a * max(1, nnz_b // max(1, kdim)))
    c.launch(kx.spgemm_fill, g.mul, g.add, False, alpha, A.val, A.ptr, A.ind, A.base, B.val, B.ptr, B.ind, B.base,
             beta, Dm.val, Dm.ptr, Dm.ind, Dm.base, one, E.val, E.ptr, E.ind, E.base, n, bounds,
             c.array("csr_val_C", nnz_c), row_ptr_c, c.array("csr_col_ind_C", nnz_c, itype), c_base,
             flops=products * (8.0 if dtype.kind == "c" else 2.0),
             bytes=float((nnz_c + nnz_a + nnz_b + nnz_d) * (dtype.itemsize + itype.itemsize)))


_GEMM_PARAMS = ("trans_A", "trans_B", "m", "n", "k", "alpha", "descr_A", "nnz_A", "csr_val_A", "csr_row_ptr_A",
                "csr_col_ind_A", "descr_B", "nnz_B", "csr_val_B", "csr_row_ptr_B", "csr_col_ind_B", "beta", "descr_D",
                "nnz_D", "csr_val_D", "csr_row_ptr_D", "csr_col_ind_D", "descr_C", "csr_val_C", "csr_row_ptr_C",
                "csr_col_ind_C", "info_C", "temp_buffer")
CSRGEMM = Routine("csrgemm", _GEMM_PARAMS, _csrgemm,
                  "C := alpha A B + beta D (CSR, sorted output columns), after csrgemm_buffer_size and csrgemm_nnz.")

scsrgemm = bind(CSRGEMM, S)
dcsrgemm = bind(CSRGEMM, D)
ccsrgemm = bind(CSRGEMM, C)
zcsrgemm = bind(CSRGEMM, Z)


# --- csrgeam ---------------------------------------------------------------------------------------


def _geam_descrs(c: Call) -> tuple[MatDescr, MatDescr, MatDescr]:
    descrs = tuple(check_descr(c[x], x, c.index(x)) for x in ("descr_A", "descr_B", "descr_C"))
    for name, d in zip(("descr_A", "descr_B", "descr_C"), descrs, strict=True):
        if d.type is not MatrixType.general:
            raise SparseNotImplementedError(f"{d.type.name} matrices are not supported", arg=name, index=c.index(name))
    for name, d in zip(("descr_A", "descr_B", "descr_C"), descrs, strict=True):
        if d.storage_mode is not StorageMode.sorted:
            raise SparseRequiresSortedStorageError("csrgeam requires sorted storage", arg=name, index=c.index(name))
    return descrs  # type: ignore[return-value]


def _csrgeam_nnz(c: Call) -> Any:
    da, db, dc = _geam_descrs(c)
    m, n, nnz_a, nnz_b = c.size("m"), c.size("n"), c.size("nnz_A"), c.size("nnz_B")
    if not c.host_mode:
        c.pointer("nnz_C")
    itype = c.index_dtype("csr_row_ptr_A", "csr_col_ind_A", "csr_row_ptr_B", "csr_col_ind_B", "csr_row_ptr_C")
    if m == 0 or n == 0 or (nnz_a == 0 and nnz_b == 0):
        return _zero_nnz(c, m, int(dc.base), itype, fill_ptr=nnz_a == 0 and nnz_b == 0)
    c.check_array("csr_row_ptr_C", m)
    c.check_array("csr_row_ptr_A", m)
    c.check_array("csr_row_ptr_B", m)
    c.check_array("csr_col_ind_A", nnz_a)
    c.check_array("csr_col_ind_B", nnz_b)
    dtype = np.dtype(np.float64)
    A = _operand(c, da, m, nnz_a, "csr_row_ptr_A", "csr_col_ind_A", None, itype, dtype)
    B = _operand(c, db, m, nnz_b, "csr_row_ptr_B", "csr_col_ind_B", None, itype, dtype)
    empty = _Operand.empty(itype, dtype)
    return _structure(c, m, n, False, True, True, empty, empty, A, B, int(dc.base), itype, dtype)


csrgeam_nnz = bind(Routine("csrgeam_nnz", ("m", "n", "descr_A", "nnz_A", "csr_row_ptr_A", "csr_col_ind_A", "descr_B",
                                           "nnz_B", "csr_row_ptr_B", "csr_col_ind_B", "descr_C", "csr_row_ptr_C",
                                           "nnz_C"), _csrgeam_nnz,
                           "C's row pointer for C := alpha A + beta B; returns nnz_C in host pointer mode."), None)


def _csrgeam(c: Call) -> None:
    c.pointer("alpha")
    c.pointer("beta")
    da, db, dc = _geam_descrs(c)
    m, n, nnz_a, nnz_b = c.size("m"), c.size("n"), c.size("nnz_A"), c.size("nnz_B")
    if m == 0 or n == 0 or (nnz_a == 0 and nnz_b == 0):
        return
    c.check_array("csr_row_ptr_A", m)
    c.check_array("csr_row_ptr_B", m)
    c.check_array("csr_row_ptr_C", m)
    c.check_array("csr_val_A", nnz_a)
    c.check_array("csr_col_ind_A", nnz_a)
    c.check_array("csr_val_B", nnz_b)
    c.check_array("csr_col_ind_B", nnz_b)
    itype = c.index_dtype("csr_row_ptr_A", "csr_col_ind_A", "csr_row_ptr_B", "csr_col_ind_B", "csr_row_ptr_C",
                          "csr_col_ind_C")
    nnz_c = _nnz_c(c, m, itype)
    c.check_array("csr_val_C", nnz_c)
    c.check_array("csr_col_ind_C", nnz_c)
    if nnz_c == 0:
        return
    dtype = c.dtype
    A = _operand(c, da, m, nnz_a, "csr_row_ptr_A", "csr_col_ind_A", "csr_val_A", itype, dtype)
    B = _operand(c, db, m, nnz_b, "csr_row_ptr_B", "csr_col_ind_B", "csr_val_B", itype, dtype)
    empty = _Operand.empty(itype, dtype)
    row_ptr_c = c.array("csr_row_ptr_C", m + 1, itype)
    # checking mode: A and B, and C's row pointer, which places the entries
    check_operands(c, False, True, True, empty, empty, A, B, n)
    check_offsets(c, row_ptr_c, int(dc.base), nnz_c)
    bounds = _row_blocks(c, A.ptr, A.base, m, n, dtype.itemsize)
    c.launch(kx.spgemm_fill, False, True, True, np.ones(1, dtype), empty.val, empty.ptr, empty.ind, 0, empty.val,
             empty.ptr, empty.ind, 0, c.scalar("alpha"), A.val, A.ptr, A.ind, A.base, c.scalar("beta"), B.val, B.ptr,
             B.ind, B.base, n, bounds, c.array("csr_val_C", nnz_c), row_ptr_c,
             c.array("csr_col_ind_C", nnz_c, itype), int(dc.base),
             flops=float(3 * (nnz_a + nnz_b)) * (4.0 if dtype.kind == "c" else 1.0),
             bytes=float((nnz_a + nnz_b + nnz_c) * (dtype.itemsize + itype.itemsize)))


CSRGEAM = Routine("csrgeam", ("m", "n", "alpha", "descr_A", "nnz_A", "csr_val_A", "csr_row_ptr_A", "csr_col_ind_A",
                              "beta", "descr_B", "nnz_B", "csr_val_B", "csr_row_ptr_B", "csr_col_ind_B", "descr_C",
                              "csr_val_C", "csr_row_ptr_C", "csr_col_ind_C"), _csrgeam,
                  "C := alpha A + beta B for m x n CSR matrices (sorted), after csrgeam_nnz.")

scsrgeam = bind(CSRGEAM, S)
dcsrgeam = bind(CSRGEAM, D)
ccsrgeam = bind(CSRGEAM, C)
zcsrgeam = bind(CSRGEAM, Z)
