"""Level 2: csrmv (with csrmv_analysis / csrmv_clear) and coomv, in rocSPARSE's check order.

Semantics, as rocSPARSE: ``y := alpha op(A) x + beta y``; ``m == 0 || n == 0 || nnz == 0``
is a quick return that still scales y by beta; in host pointer mode ``alpha == 0 && beta == 1``
returns at once; ``beta == 0`` never reads y.  csrmv accepts general, triangular (read as
general) and symmetric matrices (the stored triangle and its transpose, the diagonal once);
coomv general ones.  Index arrays are rocsparse_int (int32) for raw pointers, or a
DeviceArray's own int32/int64 dtype.

Without analysis csrmv splits the rows evenly between parallel blocks (rocSPARSE's "stream"
algorithm).  ``csrmv_analysis`` computes a partition balanced by nonzeros once and keeps it
in the ``mat_info``; later non-transposed products reuse it (the "adaptive" algorithm), which
pays off on matrices whose row lengths vary (power-law graphs).  bsrmv_analysis and spmv's
preprocess stage make the same analysis (:func:`analyse_rows`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

import rocmath
from rocmath.kernel import pool_threads
from rocmath.launch import Buffer
from rocmath.precision import C, D, S, Z

from . import _kernels as k
from ._api import Call, Routine, bind
from ._handle import MatDescr, MatInfo, check_descr, check_info
from ._types import MatrixType, Operation, StorageMode
from ._validate import check_coo, check_csr

__all__ = [
    "ccoomv", "ccsrmv", "ccsrmv_analysis", "csrmv_clear", "dcoomv", "dcsrmv", "dcsrmv_analysis", "scoomv",
    "scsrmv", "scsrmv_analysis", "zcoomv", "zcsrmv", "zcsrmv_analysis",
]

#: Row blocks of an analysed product: about this many nonzeros each, and at most ANALYSIS_BLOCKS
#: blocks (enough to balance any thread count here; each block costs the analysis a binary search
#: whose probes miss the cache).
ANALYSIS_BLOCK_NNZ = 1 << 13
ANALYSIS_BLOCKS = 256
#: Row blocks of a product without analysis: rows split evenly in this many blocks (at most), each
#: of at least about STREAM_BLOCK_ENTRIES terms on average.
STREAM_BLOCKS = 256
STREAM_BLOCK_ENTRIES = 4096
#: Chunks of a scattered (transposed or COO) product: at most this many, each of at least SCATTER_CHUNK_NNZ.
MAX_SCATTER_CHUNKS = 4
SCATTER_CHUNK_NNZ = 1 << 15


@dataclass
class CsrmvAnalysis:
    """What ``csrmv_analysis`` records: the matrix it analysed and a row partition balanced by nonzeros."""

    trans: Operation
    m: int
    n: int
    nnz: int
    descr: MatDescr
    row_ptr: int
    col_ind: int
    bounds: rocmath.DeviceArray


def scatter_chunks(nnz: int, out_len: int, per_row: int = 1) -> int:
    """How many private accumulators a scattered product uses (fixed by the sizes: deterministic)."""
    by_nnz = max(1, nnz // SCATTER_CHUNK_NNZ)
    by_memory = max(1, (1 << 27) // max(1, out_len * per_row))  # at most 1 GiB of doubles of scratch
    return int(min(MAX_SCATTER_CHUNKS, by_nnz, by_memory))


def stream_bounds(m: int, entries: int) -> np.ndarray:
    """The row partition of a product without analysis: ``m`` rows split evenly in at most
    STREAM_BLOCKS blocks of at least about STREAM_BLOCK_ENTRIES of the ``entries`` (scalar
    terms) each, so that a small product does not pay for hundreds of blocks."""
    return k.uniform_bounds(m, max(1, min(m, STREAM_BLOCKS, entries // STREAM_BLOCK_ENTRIES)))


def spmv_bytes(m: int, n: int, nnz: int, itemsize: int, idxsize: int, transposed: bool, reads_y: bool) -> float:
    """Bytes a CSR product must move: values and columns, row pointers, x once, y written (and read)."""
    ylen, xlen = (n, m) if transposed else (m, n)
    return float(nnz * (itemsize + idxsize) + (m + 1) * idxsize + xlen * itemsize + ylen * itemsize
                 * (2 if reads_y else 1))


def launch_csrmv(c: Call, trans: Operation, mtype: MatrixType, m: int, n: int, nnz: int, base: int, val: Buffer,
                 row_ptr: Buffer, col_ind: Buffer, alpha: Any, x: Buffer, beta: Any, y: Buffer,
                 bounds: Any = None, force_conj: bool = False, scratch: Buffer | None = None) -> None:
    """Enqueue ``y := alpha op(A) x + beta y`` for a checked, non-empty CSR matrix.

    ``bounds``: an analysed row partition (None: rows split evenly).  ``scratch``: the
    accumulators of a transposed product (None: from the handle's workspace).
    """
    check_csr(c, row_ptr, col_ind, base, nnz, n)
    conj = trans is Operation.conjugate_transpose or force_conj
    isz, idx = val.dtype.itemsize, col_ind.dtype.itemsize
    hb = c.host_value("beta") if c.host_mode and "beta" in c.values else None
    reads_y = hb is None or hb != 0
    flops = nnz * (8.0 if val.dtype.kind == "c" else 2.0)
    if trans is Operation.none or mtype is MatrixType.symmetric:
        c.launch(k.csrmv_rows, conj, alpha, val, row_ptr, col_ind, base, x, beta, y,
                 stream_bounds(m, nnz) if bounds is None else bounds, pool_threads(), flops=flops,
                 bytes=spmv_bytes(m, n, nnz, isz, idx, False, reads_y))
    if trans is not Operation.none or mtype is MatrixType.symmetric:
        ylen = n if mtype is not MatrixType.symmetric else m
        chunks = scatter_chunks(nnz, ylen)
        if scratch is None:
            scratch = c.workspace(chunks * ylen * isz, val.dtype, (chunks, ylen), "scratch")
        c.launch(k.csr_scatter, conj, mtype is MatrixType.symmetric, val, row_ptr, col_ind, base, x, scratch,
                 flops=flops, bytes=spmv_bytes(m, n, nnz, isz, idx, True, False) + chunks * ylen * isz)
        one = np.ones(1, val.dtype)
        c.launch(k.gather_chunks, alpha, scratch, one if mtype is MatrixType.symmetric else beta, y,
                 bytes=float(chunks * ylen * isz + 2 * ylen * isz))


def scale_y(c: Call, beta: Any, y: Buffer) -> None:
    """The quick return's ``y := beta y`` (beta == 0 writes zeros without reading y)."""
    if y.shape[0] > 0:
        c.launch(k.scale, beta, y, bytes=2.0 * y.shape[0] * y.dtype.itemsize)


def _check_type(c: Call, descr: MatDescr, m: Any, n: Any) -> None:
    """csrmv's descriptor rules: general, triangular or symmetric; square unless general; sorted."""
    if descr.type not in (MatrixType.general, MatrixType.triangular, MatrixType.symmetric):
        from ._types import SparseNotImplementedError

        raise SparseNotImplementedError(f"matrix type {descr.type.name} is not supported", arg="descr",
                                        index=c.index("descr"))
    if descr.type is not MatrixType.general and m != n:
        raise c.invalid_size("descr", f"a {descr.type.name} matrix must be square, got {m} x {n}")
    if descr.storage_mode is not StorageMode.sorted:
        from ._types import SparseRequiresSortedStorageError

        raise SparseRequiresSortedStorageError("csrmv requires sorted storage", arg="descr", index=c.index("descr"))


# --- csrmv_analysis --------------------------------------------------------------------------------


def analyse_rows(c: Call, info: MatInfo, trans: Operation, m: int, n: int, nnz: int, entries: int, descr: MatDescr,
                 row_ptr: Buffer, col_ind_ptr: int, slot: str = "csrmv") -> None:
    """Keep in ``info`` a partition of the ``m`` rows of ``row_ptr`` (an ``m x n`` matrix of ``nnz`` stored
    entries or blocks, ``entries`` scalars in all) in blocks of about ``ANALYSIS_BLOCK_NNZ`` scalars (at most
    ``ANALYSIS_BLOCKS`` blocks): the analysis of csrmv, bsrmv and the generic spmv, which their products then
    run on, kept in ``info``'s ``slot`` (bsrmv's of blocks larger than 1 x 1: "bsrmv")."""
    nblocks = int(max(1, min(m, ANALYSIS_BLOCKS, -(-entries // ANALYSIS_BLOCK_NNZ))))
    bounds = rocmath.empty(nblocks + 1, np.int64)
    c.launch(k.balanced_row_bounds, row_ptr, int(descr.base), nblocks, bounds, bytes=k.row_bounds_bytes(nblocks, m))
    setattr(info, slot, CsrmvAnalysis(trans, m, n, nnz, descr, row_ptr.ptr, col_ind_ptr, bounds))


def _csrmv_analysis(c: Call) -> None:
    descr = check_descr(c["descr"], "descr", c.index("descr"))
    info = check_info(c["info"], "info", c.index("info"))
    trans = c.enum("trans", Operation)
    # Unlike csrmv, the analysis checks the descriptor before the sizes (on the raw m and n).
    _check_type(c, descr, c["m"], c["n"])
    m, n, nnz = c.size("m"), c.size("n"), c.size("nnz")
    if m == 0 or n == 0 or nnz == 0:
        return
    c.check_array("csr_row_ptr", m)
    c.check_array("csr_val", nnz)
    c.check_array("csr_col_ind", nnz)
    itype = c.index_dtype("csr_row_ptr", "csr_col_ind")
    analyse_rows(c, info, trans, m, n, nnz, nnz, descr, c.array("csr_row_ptr", m + 1, itype), c.ptr("csr_col_ind"))


CSRMV_ANALYSIS = Routine("csrmv_analysis", ("trans", "m", "n", "nnz", "descr", "csr_val", "csr_row_ptr",
                                            "csr_col_ind", "info"), _csrmv_analysis,
                         "Analyse a CSR matrix for csrmv: a row partition balanced by nonzeros, kept in info.")

scsrmv_analysis = bind(CSRMV_ANALYSIS, S)
dcsrmv_analysis = bind(CSRMV_ANALYSIS, D)
ccsrmv_analysis = bind(CSRMV_ANALYSIS, C)
zcsrmv_analysis = bind(CSRMV_ANALYSIS, Z)


def _csrmv_clear(c: Call) -> None:
    info = check_info(c["info"], "info", c.index("info"))
    info.csrmv = info.bsrmv = None


csrmv_clear = bind(Routine("csrmv_clear", ("info",), _csrmv_clear, "Free the csrmv analysis kept in info."), None)


# --- csrmv -----------------------------------------------------------------------------------------


def analysed_bounds(c: Call, trans: Operation, m: int, n: int, nnz: int, descr: MatDescr, row_ptr: str = "csr_row_ptr",
                    col_ind: str = "csr_col_ind", strict: bool = True, slot: str = "csrmv") -> Any:
    """The analysed partition when ``info`` holds one (non-transposed products only).  ``strict``: an
    analysis of another matrix (sizes, descriptor, the ``row_ptr`` / ``col_ind`` arrays) is an error,
    as in rocSPARSE's adaptive csrmv; otherwise it is not used."""
    info = c["info"]
    if info is None or getattr(info, slot, None) is None or trans is not Operation.none:
        return None
    a: CsrmvAnalysis = getattr(check_info(info, "info", c.index("info")), slot)
    if a.trans is not trans:
        error = c.invalid_value("info", f"analysed for {a.trans.name}, called with {trans.name}")
    elif (a.m, a.n, a.nnz) != (m, n, nnz):
        error = c.invalid_size("info", f"analysed a {a.m} x {a.n} matrix with {a.nnz} nonzeros, "
                                       f"called with {m} x {n}, {nnz}")
    elif a.descr is not descr:
        error = c.invalid_value("info", "analysed with another matrix descriptor")
    elif (a.row_ptr, a.col_ind) != (c.ptr(row_ptr), c.ptr(col_ind)):
        error = c.invalid_pointer("info", f"analysed with other {row_ptr} / {col_ind} arrays")
    else:
        return a.bounds
    if strict:
        raise error
    return None


def _csrmv(c: Call) -> None:
    trans = c.enum("trans", Operation)
    m, n, nnz = c.size("m"), c.size("n"), c.size("nnz")
    c.pointer("alpha")
    descr = check_descr(c["descr"], "descr", c.index("descr"))
    _check_type(c, descr, m, n)
    c.check_array("csr_val", nnz)
    c.check_array("csr_row_ptr", m)
    c.check_array("csr_col_ind", nnz)
    xlen, ylen = (n, m) if trans is Operation.none else (m, n)
    c.check_array("x", xlen)
    c.pointer("beta")
    c.check_array("y", ylen)
    alpha, beta = c.scalar("alpha"), c.scalar("beta")
    y = c.array("y", ylen)
    if m == 0 or n == 0 or nnz == 0:
        scale_y(c, beta, y)
        return
    if c.alpha0_beta1():
        return
    bounds = analysed_bounds(c, trans, m, n, nnz, descr)
    itype = c.index_dtype("csr_row_ptr", "csr_col_ind")
    launch_csrmv(c, trans, descr.type, m, n, nnz, int(descr.base), c.array("csr_val", nnz),
                 c.array("csr_row_ptr", m + 1, itype), c.array("csr_col_ind", nnz, itype), alpha,
                 c.array("x", xlen), beta, y, bounds)


CSRMV = Routine("csrmv", ("trans", "m", "n", "nnz", "alpha", "descr", "csr_val", "csr_row_ptr", "csr_col_ind",
                          "info", "x", "beta", "y"), _csrmv,
                "y := alpha op(A) x + beta y for an m x n CSR matrix A (info: None, or analysed by csrmv_analysis).",
                replay=True)

scsrmv = bind(CSRMV, S)
dcsrmv = bind(CSRMV, D)
ccsrmv = bind(CSRMV, C)
zcsrmv = bind(CSRMV, Z)


# --- coomv -----------------------------------------------------------------------------------------


def launch_coomv(c: Call, trans: Operation, m: int, n: int, nnz: int, base: int, val: Buffer, row_ind: Buffer,
                 col_ind: Buffer, alpha: Any, x: Buffer, beta: Any, y: Buffer, scratch: Buffer | None = None) -> None:
    """Enqueue ``y := alpha op(A) x + beta y`` for a checked, non-empty COO matrix (any entry order)."""
    check_coo(c, row_ind, col_ind, base, m, n, nnz)
    transposed = trans is not Operation.none
    ylen = n if transposed else m
    isz = val.dtype.itemsize
    chunks = scatter_chunks(nnz, ylen)
    if scratch is None:
        scratch = c.workspace(chunks * ylen * isz, val.dtype, (chunks, ylen), "scratch")
    c.launch(k.coo_scatter, transposed, trans is Operation.conjugate_transpose, val, row_ind, col_ind, base, x,
             scratch, flops=nnz * (8.0 if val.dtype.kind == "c" else 2.0),
             bytes=float(nnz * (isz + 2 * row_ind.dtype.itemsize) + (m + n) * isz + chunks * ylen * isz))
    c.launch(k.gather_chunks, alpha, scratch, beta, y, bytes=float(chunks * ylen * isz + 2 * ylen * isz))


def _coomv(c: Call) -> None:
    descr = check_descr(c["descr"], "descr", c.index("descr"))
    trans = c.enum("trans", Operation)
    if descr.type is not MatrixType.general:
        from ._types import SparseNotImplementedError

        raise SparseNotImplementedError(f"coomv supports general matrices, got {descr.type.name}", arg="descr",
                                        index=c.index("descr"))
    m, n, nnz = c.size("m"), c.size("n"), c.size("nnz")
    xlen, ylen = (n, m) if trans is Operation.none else (m, n)
    c.pointer("alpha")
    c.pointer("beta")
    if c.alpha0_beta1():
        return
    c.check_array("x", xlen)
    c.check_array("y", ylen)
    c.check_array("coo_val", nnz)
    c.check_array("coo_row_ind", nnz)
    c.check_array("coo_col_ind", nnz)
    alpha, beta = c.scalar("alpha"), c.scalar("beta")
    y = c.array("y", ylen)
    if m == 0 or n == 0 or nnz == 0:
        scale_y(c, beta, y)
        return
    itype = c.index_dtype("coo_row_ind", "coo_col_ind")
    launch_coomv(c, trans, m, n, nnz, int(descr.base), c.array("coo_val", nnz), c.array("coo_row_ind", nnz, itype),
                 c.array("coo_col_ind", nnz, itype), alpha, c.array("x", xlen), beta, y)


COOMV = Routine("coomv", ("trans", "m", "n", "nnz", "alpha", "descr", "coo_val", "coo_row_ind", "coo_col_ind", "x",
                          "beta", "y"), _coomv,
                "y := alpha op(A) x + beta y for an m x n COO matrix A (duplicates add up).")

scoomv = bind(COOMV, S)
dcoomv = bind(COOMV, D)
ccoomv = bind(COOMV, C)
zcoomv = bind(COOMV, Z)
