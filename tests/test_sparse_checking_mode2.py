"""Checking mode's scan of the index arrays of the sparse routines beyond the products (sparse/_validate.py):
Level 1 and the sparse-vector routines, gemvi / gemmi, the HYB product's COO part, the triangular solves and
factorizations (analysis and solve), csrgemm / csrgeam / spgemm, sddmm, the conversions and csrcolor.

One injected defect (a column past n, a one-based matrix described as zero-based, a decreasing offset, an
index past the dense vector) raises MemoryAccessFault naming the array, the first bad position and its
value -- at the next synchronize, or at once from a routine that blocks -- and leaves the outputs bitwise
untouched; a valid matrix gives the bits of a run outside checking mode.  ELL padding (any column outside
[0, n), as rocSPARSE's ellmv skips it) is never reported."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.sparse as rs
from rocmath.errors import MemoryAccessFault
from rocmath.testing import examples

M, N, S, L = 7, 5, 6, 9  # general matrices are M x N, square ones S x S; dense vectors of L entries
I32, F64 = rs.IndexType.i32, rs.Datatype.f64_r
FORCE, AUTO = rs.AnalysisPolicy.force, rs.SolvePolicy.auto


# --- matrices, defects and what the scan must report ------------------------------------------------------


@dataclass(frozen=True)
class Csr:
    """Host CSR (or CSC, BSR block structure) arrays; ``nnz`` is the declared number of stored entries."""

    m: int
    n: int
    ptr: np.ndarray
    ind: np.ndarray
    val: np.ndarray
    base: int = 0

    @staticmethod
    def of(a: sp.csr_matrix, base: int = 0) -> Csr:
        a = sp.csr_matrix(a)
        a.sort_indices()
        return Csr(a.shape[0], a.shape[1], a.indptr.astype(np.int32) + base, a.indices.astype(np.int32) + base,
                   a.data.astype(np.float64), base)

    @property
    def nnz(self) -> int:
        return self.ind.shape[0]

    def descr(self) -> rs.MatDescr:
        d = rs.create_mat_descr()
        rs.set_mat_index_base(d, self.base)
        return d

    def device(self) -> tuple[rm.DeviceArray, rm.DeviceArray, rm.DeviceArray]:
        return rm.to_device(self.val), rm.to_device(self.ptr), rm.to_device(self.ind)

    def spmat(self, fmt: str = "csr") -> tuple[Any, tuple[rm.DeviceArray, ...]]:
        """A generic descriptor of the arrays (``csc``: the CSC matrix of n x m they also describe)."""
        v, p, i = self.device()
        if fmt == "csc":
            return rs.create_csc_descr(self.n, self.m, self.nnz, p, i, v, I32, I32, self.base, F64), (v, p, i)
        return rs.create_csr_descr(self.m, self.n, self.nnz, p, i, v, I32, I32, self.base, F64), (v, p, i)


def general(seed: int) -> sp.csr_matrix:
    return sp.random(M, N, 0.5, random_state=seed, format="csr")


def square(seed: int, size: int = S) -> sp.csr_matrix:
    """A diagonally dominant matrix (its factorizations and solves stay finite)."""
    return sp.csr_matrix(sp.random(size, size, 0.4, random_state=seed) + 4 * sp.identity(size))


def first_bad_offset(ptr: np.ndarray, base: int, nnz: int) -> int | None:
    for i, v in enumerate(ptr):
        if not 0 <= v - base <= nnz or (i and v < ptr[i - 1]):
            return i
    return None


def first_bad_index(ind: np.ndarray, base: int, limit: int) -> int | None:
    bad = np.flatnonzero((ind - base < 0) | (ind - base >= limit))
    return int(bad[0]) if bad.size else None


def csr_words(a: Csr, nnz: int, names: tuple[str, str], limit: int, what: str, full: bool) -> tuple[str, ...] | None:
    """What the scan of a CSR structure reports first (None: nothing), as the module documents it."""
    i = first_bad_offset(a.ptr, a.base, nnz)
    if i is not None:
        v = a.ptr[i]
        if not 0 <= v - a.base <= nnz:
            return f"{names[0]}[{i}] = {v} points outside the {nnz} stored entries (index base {a.base})",
        return f"{names[0]}[{i}] = {v} is below {names[0]}[{i - 1}] = {a.ptr[i - 1]}",
    j = first_bad_index(a.ind[:a.ptr[-1] - a.base], a.base, limit) if full else None
    if j is not None:
        return f"{names[1]}[{j}] = {a.ind[j]} is outside the {limit} {what} (index base {a.base})",
    return None


def index_words(name: str, ind: np.ndarray, base: int, limit: int, what: str) -> tuple[str, ...] | None:
    j = first_bad_index(ind, base, limit)
    return None if j is None else (f"{name}[{j}] = {ind[j]} is outside the {limit} {what} (index base {base})",)


def csr_defect(a: Csr, defect: str, rng: np.random.Generator, limit: int) -> Csr:
    ptr, ind = a.ptr.copy(), a.ind.copy()
    if defect == "column":  # past the columns, or below the base
        ind[rng.integers(a.nnz)] = limit + rng.integers(0, 3) if rng.random() < 0.7 else -1 - rng.integers(0, 2)
    elif defect == "one-based":  # described as zero-based
        ptr, ind = ptr + 1, ind + 1
    elif defect == "decrease":
        i = int(rng.choice(np.flatnonzero(ptr[:-1] > 0))) + 1
        ptr[i] = ptr[i - 1] - 1
    else:  # "past nnz": the last offset beyond the declared entries
        ptr[-1] = a.nnz + 1 + rng.integers(0, 2)
    return replace(a, ptr=ptr, ind=ind)


class Outs:
    """A case's outputs (and in-place operands), each with its content before the call."""

    def __init__(self) -> None:
        self.items: list[tuple[rm.DeviceArray, np.ndarray]] = []
        self.results: list[Any] = []

    def __call__(self, init: np.ndarray) -> rm.DeviceArray:
        return self.keep(rm.to_device(np.asarray(init)))

    def keep(self, d: rm.DeviceArray) -> rm.DeviceArray:
        self.items.append((d, d.get()))
        return d

    def untouched(self) -> bool:
        return all(bits(d.get()) == bits(init) for d, init in self.items)

    def got(self) -> list[bytes]:
        return [bits(d.get()) for d, _ in self.items] + [bits(np.asarray(r)) for r in self.results]


def bits(a: np.ndarray) -> bytes:
    return np.ascontiguousarray(a).tobytes()


@contextlib.contextmanager
def stream_handle() -> Iterator[Any]:
    """A handle on a stream of its own (destroyed after), in checking mode."""
    h = rs.create_handle()
    h.set_stream(rm.Stream())
    try:
        with rm.checking():
            yield h
    finally:
        h.stream.destroy()


def faults(h: Any, call: Callable[[], Any], words: tuple[str, ...]) -> None:
    """``call`` enqueues work whose scan fails: the fault comes at synchronize (or from the call itself when
    it blocks), naming ``words``."""
    with pytest.raises(MemoryAccessFault) as err:
        call()
        h.stream.synchronize()
    for w in words:
        assert w in str(err.value), (w, str(err.value))


def same_bits_as_unchecked(case: Callable[..., None], h: Any, a: Any) -> None:
    """``case`` on a valid matrix gives, in checking mode, the bits of a run outside it."""
    runs = []
    for checking in (True, False):
        with rm.checking(checking):
            out = Outs()
            case(h, a, out, a)
            h.stream.synchronize()
            runs.append(out.got())
    assert runs[0] == runs[1]


# --- CSR, CSC and BSR cases ----------------------------------------------------------------------------------


def _csr2csc(h, a, out, ref):
    v, p, i = a.device()
    size = rs.csr2csc_buffer_size(h, a.m, a.n, a.nnz, p, i, rs.Action.numeric)
    rs.dcsr2csc(h, a.m, a.n, a.nnz, v, p, i, out(np.full(a.nnz, 7.0)), out(np.full(a.nnz, -3, np.int32)),
                out(np.full(a.n + 1, -3, np.int32)), rs.Action.numeric, a.base, rm.empty(max(size, 1), np.uint8))


def _csr2coo(h, a, out, ref):
    rs.csr2coo(h, rm.to_device(a.ptr), a.nnz, a.m, out(np.full(a.nnz, -3, np.int32)), a.base)


def _csr2ell(h, a, out, ref):
    v, p, i = a.device()
    w = int(np.diff(ref.ptr).max())  # (csr2ell_width of the valid matrix: it reads the row lengths only)
    rs.dcsr2ell(h, a.m, a.descr(), v, p, i, rs.create_mat_descr(), w, out(np.full(a.m * w, 7.0)),
                out(np.full(a.m * w, -3, np.int32)))


def _csr2bsr_nnz(h, a, out, ref):
    _, p, i = a.device()
    out.results.append(rs.csr2bsr_nnz(h, rs.Direction.row, a.m, a.n, a.descr(), p, i, 2, rs.create_mat_descr(),
                                      out(np.full(-(-a.m // 2) + 1, -3, np.int32)), None))


def _csr2bsr(h, a, out, ref):
    mb = -(-a.m // 2)
    bptr = out(np.zeros(mb + 1, np.int32))
    with rm.checking(False):  # the BSR row pointer of the valid matrix
        _, rp, ri = ref.device()
        nnzb = rs.csr2bsr_nnz(h, rs.Direction.row, a.m, a.n, ref.descr(), rp, ri, 2, rs.create_mat_descr(), bptr,
                              None)
        h.stream.synchronize()
    out.items[-1] = (bptr, bptr.get())
    v, p, i = a.device()
    rs.dcsr2bsr(h, rs.Direction.column, a.m, a.n, a.descr(), v, p, i, 2, rs.create_mat_descr(),
                out(np.full(4 * nnzb, 7.0)), bptr, out(np.full(nnzb, -3, np.int32)))


def _csr2dense(h, a, out, ref):
    v, p, i = a.device()
    rs.dcsr2dense(h, a.m, a.n, a.descr(), v, p, i, out(np.full(a.m * a.n, 7.0)), a.m)


def _csc2dense(h, a, out, ref):  # the arrays as the CSC matrix of n x m
    v, p, i = a.device()
    rs.dcsc2dense(h, a.n, a.m, a.descr(), v, p, i, out(np.full(a.m * a.n, 7.0)), a.n)


def _csrsort(h, a, out, ref):
    _, p, i = a.device()
    size = rs.csrsort_buffer_size(h, a.m, a.n, a.nnz, p, i)
    rs.csrsort(h, a.m, a.n, a.nnz, a.descr(), p, out.keep(i), out(np.arange(a.nnz, dtype=np.int32)),
               rm.empty(max(size, 1), np.uint8))


def _prune_csr2csr(h, a, out, ref):
    v, p, i = a.device()
    out.results.append(rs.dprune_csr2csr_nnz(h, a.m, a.n, a.nnz, a.descr(), v, p, i, 0.1, rs.create_mat_descr(),
                                             out(np.full(a.m + 1, -3, np.int32)), None, rm.empty(8, np.uint8)))


def _gemmi(h, a, out, ref):  # C := A B^T, B the n x k CSR matrix
    v, p, i = a.device()
    rs.dgemmi(h, "N", "T", 3, a.m, a.n, a.nnz, 1.0, rm.to_device(np.arange(3.0 * a.n)), 3, a.descr(), v, p, i, 0.5,
              out(np.ones(3 * a.m)), 3)


def _csrsv(h, a, out, ref):
    v, p, i = a.device()
    d, info = a.descr(), rs.create_mat_info()
    buf = rm.empty(rs.dcsrsv_buffer_size(h, "N", a.m, a.nnz, d, v, p, i, info), np.uint8)
    rs.dcsrsv_analysis(h, "N", a.m, a.nnz, d, v, p, i, info, FORCE, AUTO, buf)
    rs.dcsrsv_solve(h, "N", a.m, a.nnz, 2.0, d, v, p, i, info, rm.to_device(np.arange(1.0, a.m + 1)),
                    out(np.full(a.m, 7.0)), AUTO, buf)


def _csrsm(h, a, out, ref):
    v, p, i = a.device()
    d, info = a.descr(), rs.create_mat_info()
    rs.set_mat_fill_mode(d, rs.FillMode.upper)
    B = out(np.arange(2.0 * a.m))
    buf = rm.empty(rs.dcsrsm_buffer_size(h, "T", "N", a.m, 2, a.nnz, 1.0, d, v, p, i, B, a.m, info, AUTO), np.uint8)
    rs.dcsrsm_analysis(h, "T", "N", a.m, 2, a.nnz, 1.0, d, v, p, i, B, a.m, info, FORCE, AUTO, buf)
    rs.dcsrsm_solve(h, "T", "N", a.m, 2, a.nnz, 1.0, d, v, p, i, B, a.m, info, AUTO, buf)


def _factorization(kind: str) -> Callable[..., None]:
    def run(h, a, out, ref):
        v, p, i = a.device()
        d, info = a.descr(), rs.create_mat_info()
        fn = getattr(rs, f"d{kind}")
        buf = rm.empty(getattr(rs, f"d{kind}_buffer_size")(h, a.m, a.nnz, d, v, p, i, info), np.uint8)
        getattr(rs, f"d{kind}_analysis")(h, a.m, a.nnz, d, v, p, i, info, FORCE, AUTO, buf)
        fn(h, a.m, a.nnz, d, out.keep(v), p, i, info, AUTO, buf)

    return run


def _csrcolor(h, a, out, ref):
    v, p, i = a.device()
    out.results.append(rs.dcsrcolor(h, a.m, a.nnz, a.descr(), v, p, i, 1.0, None,
                                     out(np.full(a.m, -3, np.int32)), out(np.full(a.m, -3, np.int32)),
                                     rs.create_mat_info()))


def _partners(role: str, a: Csr) -> tuple[Csr, Csr, Csr]:
    """A, B and D of ``alpha A B + beta D``: ``a`` (m x n) in ``role``, valid matrices of fitting sizes elsewhere."""
    def other(rows: int, cols: int, seed: int) -> Csr:
        return Csr.of(sp.random(rows, cols, 0.6, random_state=seed, format="csr"), a.base)

    if role == "A":
        return a, other(a.n, 4, 1), other(a.m, 4, 2)
    if role == "B":
        return other(3, a.m, 1), a, other(3, a.n, 2)
    return other(a.m, 3, 1), other(3, a.n, 2), a


def _csrgemm(role: str) -> Callable[..., None]:
    def run(h, a, out, ref):
        A, B, D = _partners(role, a)
        (av, ap, ai), (bv, bp, bi), (dv, dp, di) = A.device(), B.device(), D.device()
        m, n, k = A.m, B.n, A.n
        da, db, dd, dc, info = A.descr(), B.descr(), D.descr(), rs.create_mat_descr(), rs.create_mat_info()
        size = rs.dcsrgemm_buffer_size(h, "N", "N", m, n, k, 1.0, da, A.nnz, ap, ai, db, B.nnz, bp, bi, 0.5, dd,
                                       D.nnz, dp, di, info)
        buf = rm.empty(max(size, 1), np.uint8)
        cptr = out(np.full(m + 1, -3, np.int32))
        nnz = rs.csrgemm_nnz(h, "N", "N", m, n, k, da, A.nnz, ap, ai, db, B.nnz, bp, bi, dd, D.nnz, dp, di, dc, cptr,
                             None, info, buf)
        rs.dcsrgemm(h, "N", "N", m, n, k, 1.0, da, A.nnz, av, ap, ai, db, B.nnz, bv, bp, bi, 0.5, dd, D.nnz, dv, dp,
                    di, dc, out(np.full(nnz, 7.0)), cptr, out(np.full(nnz, -3, np.int32)), info, buf)

    return run


def _csrgeam(role: str) -> Callable[..., None]:
    def run(h, a, out, ref):
        other = Csr.of(sp.random(a.m, a.n, 0.5, random_state=4, format="csr"), a.base)
        A, B = (a, other) if role == "A" else (other, a)
        (av, ap, ai), (bv, bp, bi) = A.device(), B.device()
        da, db, dc = A.descr(), B.descr(), rs.create_mat_descr()
        cptr = out(np.full(a.m + 1, -3, np.int32))
        nnz = rs.csrgeam_nnz(h, a.m, a.n, da, A.nnz, ap, ai, db, B.nnz, bp, bi, dc, cptr, None)
        rs.dcsrgeam(h, a.m, a.n, 2.0, da, A.nnz, av, ap, ai, -1.0, db, B.nnz, bv, bp, bi, dc, out(np.full(nnz, 7.0)),
                    cptr, out(np.full(nnz, -3, np.int32)))

    return run


def _spgemm(role: str) -> Callable[..., None]:
    def run(h, a, out, ref):
        A, B, D = _partners(role, a)
        (Am, _), (Bm, _), (Dm, _) = A.spmat(), B.spmat(), D.spmat()
        m, n = A.m, B.n
        cptr = out(np.full(m + 1, -3, np.int32))
        Cd = rs.create_csr_descr(m, n, 0, cptr, None, None, I32, I32, 0, F64)
        args = (h, "N", "N", 1.0, Am, Bm, 0.5, Dm, Cd, F64, rs.SpGEMMAlg.default)
        size = np.zeros(1, np.int64)
        rs.spgemm(*args, rs.SpGEMMStage.buffer_size, size)
        tmp = rm.empty(max(1, int(size[0])), np.uint8)
        rs.spgemm(*args, rs.SpGEMMStage.nnz, None, tmp)
        nnz = rs.spmat_get_size(Cd)[2]
        rs.csr_set_pointers(Cd, cptr, out(np.full(nnz, -3, np.int32)), out(np.full(nnz, 7.0)))
        rs.spgemm(*args, rs.SpGEMMStage.compute, None, tmp)

    return run


def _spsv(h, a, out, ref):
    A, _keep = a.spmat()
    rs.spmat_set_attribute(A, rs.SpMatAttribute.fill_mode, rs.FillMode.upper)
    X = rs.create_dnvec_descr(a.m, rm.to_device(np.arange(1.0, a.m + 1)), F64)
    Y = rs.create_dnvec_descr(a.m, out(np.full(a.m, 7.0)), F64)
    args = (h, "N", 1.0, A, X, Y, F64, rs.SpSVAlg.default)
    tmp = rm.empty(rs.spsv(*args, rs.SpSVStage.buffer_size), np.uint8)
    rs.spsv(*args, rs.SpSVStage.preprocess, None, tmp)
    rs.spsv(*args, rs.SpSVStage.compute, None, tmp)


def _dense(rows: int, cols: int, values: Any) -> Any:
    return rs.create_dnmat_descr(rows, cols, rows, values, F64, rs.Order.column)


def _sddmm(fmt: str) -> Callable[..., None]:
    def run(h, a, out, ref):
        C, (v, _, _) = a.spmat(fmt)
        rows, cols = (a.n, a.m) if fmt == "csc" else (a.m, a.n)
        out.keep(v)
        args = (h, "N", "N", 2.0, _dense(rows, 3, rm.to_device(np.arange(3.0 * rows))),
                _dense(3, cols, rm.to_device(np.arange(3.0 * cols) / 7)), 0.5, C, F64, rs.SDDMMAlg.default)
        rs.sddmm_buffer_size(*args)
        rs.sddmm(*args, None)

    return run


def _sparse_to_dense(fmt: str) -> Callable[..., None]:
    def run(h, a, out, ref):
        A, _keep = a.spmat(fmt)
        rows, cols = (a.n, a.m) if fmt == "csc" else (a.m, a.n)
        rs.sparse_to_dense(h, A, _dense(rows, cols, out(np.full(rows * cols, 7.0))), rs.SparseToDenseAlg.default,
                           None, rm.empty(4, np.uint8))

    return run


def _spmv_csc(h, a, out, ref):  # the generic product names CSC arrays after create_csc_descr's
    A, _keep = a.spmat("csc")
    x = rs.create_dnvec_descr(a.m, rm.to_device(np.arange(1.0, a.m + 1)), F64)
    y = rs.create_dnvec_descr(a.n, out(np.full(a.n, 7.0)), F64)
    args = (h, "N", 1.0, A, x, 0.5, y, F64, rs.SpMVAlg.default)
    tmp = rm.empty(max(1, rs.spmv(*args, rs.SpMVStage.buffer_size)), np.uint8)
    rs.spmv(*args, rs.SpMVStage.compute, None, tmp)


def _block_values(a: Csr) -> np.ndarray:
    """2 x 2 blocks, the diagonal ones dominant."""
    v = np.tile(np.array([0.5, -0.25, 0.125, 0.75]), a.nnz)
    rows = np.repeat(np.arange(a.m), np.diff(a.ptr)) if first_bad_offset(a.ptr, a.base, a.nnz) is None else None
    if rows is not None:
        for k in np.flatnonzero(a.ind - a.base == rows):
            v[4 * k] += 8
            v[4 * k + 3] += 8
    return v


def _bsrsv(h, a, out, ref):
    _, p, i = a.device()
    v = rm.to_device(_block_values(a))
    d, info, row = a.descr(), rs.create_mat_info(), rs.Direction.row
    buf = rm.empty(rs.dbsrsv_buffer_size(h, row, "N", a.m, a.nnz, d, v, p, i, 2, info), np.uint8)
    rs.dbsrsv_analysis(h, row, "N", a.m, a.nnz, d, v, p, i, 2, info, FORCE, AUTO, buf)
    rs.dbsrsv_solve(h, row, "N", a.m, a.nnz, 1.0, d, v, p, i, 2, info, rm.to_device(np.arange(2.0 * a.m)),
                    out(np.full(2 * a.m, 7.0)), AUTO, buf)


def _bsrilu0(h, a, out, ref):
    _, p, i = a.device()
    v = out(_block_values(a))
    d, info, col = a.descr(), rs.create_mat_info(), rs.Direction.column
    buf = rm.empty(rs.dbsrilu0_buffer_size(h, col, a.m, a.nnz, d, v, p, i, 2, info), np.uint8)
    rs.dbsrilu0_analysis(h, col, a.m, a.nnz, d, v, p, i, 2, info, FORCE, AUTO, buf)
    rs.dbsrilu0(h, col, a.m, a.nnz, d, v, p, i, 2, info, AUTO, buf)


def _bsr2csr(h, a, out, ref):
    _, p, i = a.device()
    nnz = 4 * ref.nnz
    rs.dbsr2csr(h, rs.Direction.row, a.m, a.n, a.descr(), rm.to_device(_block_values(ref)), p, i, 2,
                rs.create_mat_descr(), out(np.full(nnz, 7.0)), out(np.full(2 * a.m + 1, -3, np.int32)),
                out(np.full(nnz, -3, np.int32)))


@dataclass(frozen=True)
class Case:
    """A routine reading a compressed matrix: ``names`` of its pointer and index arrays, ``limit`` and ``what``
    the indices address, ``full`` whether the indices are scanned (False: the offsets alone, the indices only
    copied or sorted), ``span`` whether the routine counts the entries from the pointer (else its nnz argument),
    ``square`` for a square matrix."""

    run: Callable[..., None]
    names: tuple[str, str] = ("csr_row_ptr", "csr_col_ind")
    full: bool = True
    span: bool = False
    square: bool = False
    csc: bool = False
    bsr: bool = False

    def matrix(self, seed: int, base: int = 0) -> Csr:
        return Csr.of(square(seed) if self.square or self.bsr else general(seed), base)

    def limit(self, a: Csr) -> tuple[int, str]:
        return (a.n, "rows") if self.csc else (a.n, "columns")


_CSC = ("csc_col_ptr", "csc_row_ind")
_BSR = ("bsr_row_ptr", "bsr_col_ind")
CASES = {
    "csr2csc": Case(_csr2csc),
    "csr2coo": Case(_csr2coo, full=False),
    "csr2ell": Case(_csr2ell, full=False, span=True),
    "csr2bsr_nnz": Case(_csr2bsr_nnz, span=True),
    "csr2bsr": Case(_csr2bsr, full=False, span=True),
    "csr2dense": Case(_csr2dense, span=True),
    "csc2dense": Case(_csc2dense, _CSC, span=True, csc=True),
    "csrsort": Case(_csrsort, full=False),
    "prune_csr2csr_nnz": Case(_prune_csr2csr, ("csr_row_ptr_A", "csr_col_ind_A"), full=False),
    "gemmi": Case(_gemmi),
    "csrsv": Case(_csrsv, square=True),
    "csrsm": Case(_csrsm, square=True),
    "csrilu0": Case(_factorization("csrilu0"), square=True),
    "csric0": Case(_factorization("csric0"), square=True),
    "csrcolor": Case(_csrcolor, square=True),
    **{f"csrgemm {r}": Case(_csrgemm(r), (f"csr_row_ptr_{r}", f"csr_col_ind_{r}")) for r in "ABD"},
    **{f"csrgeam {r}": Case(_csrgeam(r), (f"csr_row_ptr_{r}", f"csr_col_ind_{r}")) for r in "AB"},
    **{f"spgemm {r}": Case(_spgemm(r), (f"csr_row_ptr_{r}", f"csr_col_ind_{r}")) for r in "ABD"},
    "spsv": Case(_spsv, square=True),
    "sddmm": Case(_sddmm("csr")),
    "sddmm csc": Case(_sddmm("csc"), _CSC, csc=True),
    "sparse_to_dense": Case(_sparse_to_dense("csr")),
    "sparse_to_dense csc": Case(_sparse_to_dense("csc"), _CSC, csc=True),
    "spmv csc": Case(_spmv_csc, _CSC, csc=True),
    "bsrsv": Case(_bsrsv, _BSR, bsr=True),
    "bsrilu0": Case(_bsrilu0, _BSR, bsr=True),
    "bsr2csr": Case(_bsr2csr, _BSR, full=False, span=True, bsr=True),
}


@pytest.mark.parametrize("name", list(CASES))
@settings(max_examples=examples(4))
@given(seed=st.integers(0, 10**6), defect=st.sampled_from(["column", "one-based", "decrease", "past nnz"]))
def test_a_bad_compressed_matrix_faults_and_leaves_the_outputs_alone(name, seed, defect):
    case = CASES[name]
    rng = np.random.default_rng(seed)
    ref = case.matrix(seed % 50)
    if (defect == "column" and not case.full) or (defect == "past nnz" and case.span):
        defect = "decrease"  # (copied indices are not scanned; a pointer's span is its nnz)
    limit, what = case.limit(ref)
    a = csr_defect(ref, defect, rng, limit)
    words = csr_words(a, a.ptr[-1] - a.ptr[0] if case.span else a.nnz, case.names, limit, what, case.full)
    assert words is not None
    with stream_handle() as h:
        out = Outs()
        faults(h, lambda: case.run(h, a, out, ref), words)
        assert out.untouched()


@pytest.mark.parametrize("name", list(CASES))
def test_a_valid_compressed_matrix_gives_the_bits_of_an_unchecked_run(name):
    case = CASES[name]
    with stream_handle() as h:
        for base in (0, 1):
            same_bits_as_unchecked(case.run, h, case.matrix(7 + base, base))


# --- COO cases -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Coo:
    m: int
    n: int
    row: np.ndarray
    col: np.ndarray
    val: np.ndarray
    base: int = 0

    @staticmethod
    def of(a: sp.csr_matrix, base: int = 0) -> Coo:
        c = sp.csr_matrix(a).tocoo()  # row-sorted
        return Coo(c.shape[0], c.shape[1], c.row.astype(np.int32) + base, c.col.astype(np.int32) + base,
                   c.data.astype(np.float64), base)

    def spmat(self) -> tuple[Any, tuple[rm.DeviceArray, ...]]:
        keep = rm.to_device(self.row), rm.to_device(self.col), rm.to_device(self.val)
        return rs.create_coo_descr(self.m, self.n, self.val.size, *keep, I32, self.base, F64), keep


def _coo2dense(h, a, out, ref):
    d = rs.create_mat_descr()
    rs.set_mat_index_base(d, a.base)
    rs.dcoo2dense(h, a.m, a.n, a.val.size, d, rm.to_device(a.val), rm.to_device(a.row), rm.to_device(a.col),
                  out(np.full(a.m * a.n, 7.0)), a.m)


def _coo_sparse_to_dense(h, a, out, ref):
    A, _keep = a.spmat()
    rs.sparse_to_dense(h, A, _dense(a.m, a.n, out(np.full(a.m * a.n, 7.0))), rs.SparseToDenseAlg.default, None,
                       rm.empty(4, np.uint8))


def _coo_sddmm(h, a, out, ref):
    C, (_, _, v) = a.spmat()
    out.keep(v)
    args = (h, "N", "N", 2.0, _dense(a.m, 3, rm.to_device(np.arange(3.0 * a.m))),
            _dense(3, a.n, rm.to_device(np.arange(3.0 * a.n) / 7)), 0.5, C, F64, rs.SDDMMAlg.default)
    rs.sddmm(*args, None)


def _coo_spsv(h, a, out, ref):
    A, _keep = a.spmat()
    X = rs.create_dnvec_descr(a.m, rm.to_device(np.arange(1.0, a.m + 1)), F64)
    Y = rs.create_dnvec_descr(a.m, out(np.full(a.m, 7.0)), F64)
    args = (h, "T", 1.0, A, X, Y, F64, rs.SpSVAlg.default)
    tmp = rm.empty(rs.spsv(*args, rs.SpSVStage.buffer_size), np.uint8)
    rs.spsv(*args, rs.SpSVStage.preprocess, None, tmp)
    rs.spsv(*args, rs.SpSVStage.compute, None, tmp)


COO_CASES = {"coo2dense": (_coo2dense, False), "sparse_to_dense coo": (_coo_sparse_to_dense, False),
             "sddmm coo": (_coo_sddmm, False), "spsv coo": (_coo_spsv, True)}


def coo_matrix(name: str, seed: int, base: int = 0) -> Coo:
    return Coo.of(square(seed) if COO_CASES[name][1] else general(seed), base)


@pytest.mark.parametrize("name", list(COO_CASES))
@settings(max_examples=examples(4))
@given(seed=st.integers(0, 10**6), defect=st.sampled_from(["row", "column", "one-based"]))
def test_a_bad_coo_matrix_faults_and_leaves_the_outputs_alone(name, seed, defect):
    rng = np.random.default_rng(seed)
    ref = coo_matrix(name, seed % 50)
    row, col = ref.row.copy(), ref.col.copy()
    j = rng.integers(row.size)
    if defect == "row":
        row[j] = ref.m + rng.integers(0, 2)
    elif defect == "column":
        col[j] = ref.n + rng.integers(0, 2) if rng.random() < 0.7 else -1
    else:
        row, col = row + 1, col + 1
    words = index_words("coo_row_ind", row, 0, ref.m, "rows") or index_words("coo_col_ind", col, 0, ref.n, "columns")
    assert words is not None
    with stream_handle() as h:
        out = Outs()
        faults(h, lambda: COO_CASES[name][0](h, replace(ref, row=row, col=col), out, ref), words)
        assert out.untouched()


@pytest.mark.parametrize("name", list(COO_CASES))
def test_a_valid_coo_matrix_gives_the_bits_of_an_unchecked_run(name):
    with stream_handle() as h:
        for base in (0, 1):
            same_bits_as_unchecked(COO_CASES[name][0], h, coo_matrix(name, 3 + base, base))


# --- sparse vectors ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Vec:
    """A sparse vector of ``nnz`` entries into a dense vector of L entries (complex: for dotci)."""

    ind: np.ndarray
    val: np.ndarray
    y: np.ndarray
    base: int = 0

    def spvec(self, out: Outs | None = None) -> Any:
        v = out(self.val) if out is not None else rm.to_device(self.val)
        return rs.create_spvec_descr(L, self.ind.size, rm.to_device(self.ind), v, I32, self.base, F64)


def _vec(seed: int, base: int = 0, complex_: bool = False) -> Vec:
    rng = np.random.default_rng(seed)
    ind = np.sort(rng.choice(L, 4, replace=False)).astype(np.int32)
    ind[-1] = L - 1  # (so that the same indices one-based run past the vector)
    val, y = rng.standard_normal(4), rng.standard_normal(L)
    if complex_:
        val, y = val + 1j * rng.standard_normal(4), y - 0.5j
    return Vec(ind + base, val, y, base)


def _level1(name: str) -> Callable[..., None]:
    def run(h, x, out, ref):
        nnz, ind, b = x.ind.size, rm.to_device(x.ind), x.base
        if name in ("doti", "dotci"):
            fn = rs.zdotci if name == "dotci" else rs.ddoti
            out.results.append(fn(h, nnz, rm.to_device(x.val), ind, rm.to_device(x.y), None, b))
        elif name == "axpyi":
            rs.daxpyi(h, nnz, 2.0, rm.to_device(x.val), ind, out(x.y), b)
        elif name in ("gthr", "gthrz"):
            y = out(x.y) if name == "gthrz" else rm.to_device(x.y)
            getattr(rs, f"d{name}")(h, nnz, y, out(np.full(nnz, 7.0)), ind, b)
        elif name == "sctr":
            rs.dsctr(h, nnz, rm.to_device(x.val), ind, out(x.y), b)
        elif name == "roti":
            rs.droti(h, nnz, out(x.val), ind, out(x.y), 0.6, 0.8, b)
        elif name == "gemvi":  # y := A x for a dense 3 x L A
            rs.dgemvi(h, "N", 3, L, 1.0, rm.to_device(np.arange(3.0 * L)), 3, nnz, rm.to_device(x.val), ind, 0.5,
                      out(np.ones(3)), b, None)
        elif name == "spvv":
            Y = rs.create_dnvec_descr(L, rm.to_device(x.y), F64)
            out.results.append(rs.spvv(h, "N", x.spvec(), Y, np.zeros(1), F64, None, rm.empty(4, np.uint8)))
        else:  # the generic axpby, gather, scatter, rot
            Y = rs.create_dnvec_descr(L, out(x.y) if name != "gather" else rm.to_device(x.y), F64)
            X = x.spvec(out if name in ("gather", "rot") else None)
            if name == "axpby":
                rs.axpby(h, 2.0, X, 0.5, Y)
            elif name == "gather":
                rs.gather(h, Y, X)
            elif name == "scatter":
                rs.scatter(h, X, Y)
            else:
                rs.rot(h, 0.6, 0.8, X, Y)

    return run


VECTOR_CASES = ("axpyi", "doti", "dotci", "gthr", "gthrz", "sctr", "roti", "gemvi", "spvv", "axpby", "gather",
                "scatter", "rot")


@pytest.mark.parametrize("name", VECTOR_CASES)
@settings(max_examples=examples(3))
@given(seed=st.integers(0, 10**6), defect=st.sampled_from(["past", "negative", "one-based"]))
def test_an_index_past_the_dense_vector_faults_and_leaves_the_outputs_alone(name, seed, defect):
    rng = np.random.default_rng(seed)
    x = _vec(seed, complex_=name == "dotci")
    ind = x.ind.copy()
    if defect == "past":
        ind[rng.integers(ind.size)] = L + rng.integers(0, 3)
    elif defect == "negative":
        ind[rng.integers(ind.size)] = -1
    else:
        ind += 1
    what = "entries of x" if name == "gemvi" else "entries of y"
    words = index_words("x_ind", ind, 0, L, what)
    assert words is not None
    with stream_handle() as h:
        out = Outs()
        faults(h, lambda: _level1(name)(h, replace(x, ind=ind), out, x), words)
        assert out.untouched()


@pytest.mark.parametrize("name", VECTOR_CASES)
def test_a_valid_sparse_vector_gives_the_bits_of_an_unchecked_run(name):
    with stream_handle() as h:
        for base in (0, 1):
            same_bits_as_unchecked(_level1(name), h, _vec(11 + base, base, name == "dotci"))


# --- ELL, HYB, COO (AoS) and the arrays a later stage reads --------------------------------------------------


def _ell(a: sp.csr_matrix) -> tuple[np.ndarray, np.ndarray, int]:
    """ELL arrays of ``a`` (column-major slots, padding -1 and 0)."""
    a = sp.csr_matrix(a)
    width = int(np.diff(a.indptr).max())
    col, val = np.full((width, a.shape[0]), -1, np.int32), np.zeros((width, a.shape[0]))
    for i in range(a.shape[0]):
        lo, hi = a.indptr[i], a.indptr[i + 1]
        col[: hi - lo, i], val[: hi - lo, i] = a.indices[lo:hi], a.data[lo:hi]
    return col.ravel(), val.ravel(), width


@settings(max_examples=examples(10))
@given(seed=st.integers(0, 10**6), trans=st.sampled_from(["N", "T"]))
def test_ell_padding_is_never_reported(seed, trans):
    """rocSPARSE's ellmv ends a row at its first column outside [0, n) (padding is -1, but any such column
    is): ellmv and the generic ELL spmv read nothing out of bounds whatever the columns, so checking
    mode has nothing to report and changes no bit."""
    rng = np.random.default_rng(seed)
    col, val, width = _ell(general(seed % 50))
    odd = rng.integers(col.size, size=2)
    col[odd] = [N + rng.integers(0, 5), -7]  # padding too (the rest of those rows with it)
    xlen, ylen = (N, M) if trans == "N" else (M, N)
    with stream_handle() as h:
        got = []
        for checking in (True, False):
            with rm.checking(checking):
                y1, y2 = rm.to_device(np.arange(float(ylen))), rm.to_device(np.arange(float(ylen)))
                x = rm.to_device(np.arange(1.0, xlen + 1))
                rs.dellmv(h, trans, M, N, 2.0, rs.create_mat_descr(), rm.to_device(val), rm.to_device(col), width, x,
                          0.5, y1)
                A = rs.create_ell_descr(M, N, rm.to_device(col), rm.to_device(val), width, I32, 0, F64)
                args = (h, trans, 2.0, A, rs.create_dnvec_descr(xlen, x, F64), 0.5,
                        rs.create_dnvec_descr(ylen, y2, F64), F64, rs.SpMVAlg.default)
                rs.spmv(*args, rs.SpMVStage.compute)
                h.stream.synchronize()
                got.append((bits(y1.get()), bits(y2.get())))
        assert got[0] == got[1]


def test_hybmv_scans_its_coo_part_before_the_ell_part_writes_y():
    a = Csr.of(general(5))
    v, p, i = a.device()
    with stream_handle() as h:
        hyb = rs.create_hyb_mat()
        rs.dcsr2hyb(h, M, N, a.descr(), v, p, i, hyb, 1, rs.HybPartition.user)  # ELL width 1, the rest COO
        h.stream.synchronize()
        rows, cols = hyb.coo_row_ind.get(), hyb.coo_col_ind.get()
        y0 = np.arange(float(M))
        for name, good, bad, limit, what in (("coo_col_ind", cols, N + 1, N, "columns"),
                                             ("coo_row_ind", rows, M, M, "rows")):
            arr = good.copy()
            arr[-1] = bad
            getattr(hyb, name).set(arr)
            y = rm.to_device(y0)
            faults(h, lambda y=y: rs.dhybmv(h, "N", 1.0, a.descr(), hyb, rm.to_device(np.ones(N)), 0.5, y),
                   (f"{name}[{arr.size - 1}] = {bad} is outside the {limit} {what}",))
            assert bits(y.get()) == bits(y0)
            getattr(hyb, name).set(good)
        # csr2hyb itself scans the row pointer (the columns it only copies): a one-based matrix described as
        # zero-based faults, and the HYB matrix stays as it was
        fresh = rs.create_hyb_mat()
        faults(h, lambda: rs.dcsr2hyb(h, M, N, a.descr(), v, rm.to_device(a.ptr + 1), rm.to_device(a.ind + 1), fresh,
                                      0, rs.HybPartition.auto), ("csr_row_ptr[",))
        assert fresh.m == 0 and fresh.coo_row_ind is None


def test_coo_aos_spmv_names_the_position_in_the_pairs():
    c = Coo.of(general(2))
    pairs = np.column_stack([c.row, c.col]).ravel().astype(np.int32)
    j = c.row.size // 2
    pairs[2 * j + 1] = N + 2
    y0 = np.arange(float(M))
    with stream_handle() as h:
        A = rs.create_coo_aos_descr(M, N, c.row.size, rm.to_device(pairs), rm.to_device(c.val), I32, 0, F64)
        y = rm.to_device(y0)
        args = (h, "N", 1.0, A, rs.create_dnvec_descr(N, rm.to_device(np.ones(N)), F64), 0.5,
                rs.create_dnvec_descr(M, y, F64), F64, rs.SpMVAlg.default)
        faults(h, lambda: rs.spmv(*args, rs.SpMVStage.compute),
               (f"coo_ind[{2 * j + 1}] = {N + 2} is outside the {N} columns",))
        assert bits(y.get()) == bits(y0)


@pytest.mark.parametrize("kind", ["csrsv", "csrilu0", "bsrsv"])
def test_the_solve_stage_scans_the_arrays_it_walks(kind):
    """An analysis of a valid matrix, then the stage that walks the caller's arrays again with a column
    changed past the matrix in between: the fault names it, y (the values) untouched."""
    a = Csr.of(square(9))
    bad = a.ind.copy()
    bad[-1] = S + 3
    with stream_handle() as h:
        v, p, i = a.device()
        d, info = a.descr(), rs.create_mat_info()
        if kind == "csrsv":
            buf = rm.empty(rs.dcsrsv_buffer_size(h, "N", S, a.nnz, d, v, p, i, info), np.uint8)
            rs.dcsrsv_analysis(h, "N", S, a.nnz, d, v, p, i, info, FORCE, AUTO, buf)
            y = rm.to_device(np.zeros(S))
            run = lambda: rs.dcsrsv_solve(h, "N", S, a.nnz, 1.0, d, v, p, i, info, rm.to_device(np.ones(S)), y,  # noqa: E731
                                          AUTO, buf)
        elif kind == "csrilu0":
            buf = rm.empty(rs.dcsrilu0_buffer_size(h, S, a.nnz, d, v, p, i, info), np.uint8)
            rs.dcsrilu0_analysis(h, S, a.nnz, d, v, p, i, info, FORCE, AUTO, buf)
            y = v
            run = lambda: rs.dcsrilu0(h, S, a.nnz, d, v, p, i, info, AUTO, buf)  # noqa: E731
        else:
            v = rm.to_device(_block_values(a))
            buf = rm.empty(rs.dbsrsv_buffer_size(h, 0, "N", S, a.nnz, d, v, p, i, 2, info), np.uint8)
            rs.dbsrsv_analysis(h, 0, "N", S, a.nnz, d, v, p, i, 2, info, FORCE, AUTO, buf)
            y = rm.to_device(np.zeros(2 * S))
            run = lambda: rs.dbsrsv_solve(h, 0, "N", S, a.nnz, 1.0, d, v, p, i, 2, info,  # noqa: E731
                                          rm.to_device(np.ones(2 * S)), y, AUTO, buf)
        h.stream.synchronize()
        before = y.get()
        i.set(bad)
        name = "bsr_col_ind" if kind == "bsrsv" else "csr_col_ind"
        faults(h, run, (f"{name}[{a.nnz - 1}] = {S + 3} is outside the {S} columns",))
        assert bits(y.get()) == bits(before)


def test_the_row_pointers_a_stage_writes_through_are_scanned():
    """csr2bsr's BSR row pointer, ell2csr's CSR row pointer and csrgemm's C row pointer (from the nnz stages,
    but the caller's arrays by then) place the entries the kernels write."""
    a = Csr.of(general(6))
    with stream_handle() as h:
        v, p, i = a.device()
        # csr2bsr with a decreasing BSR row pointer
        bptr = rm.to_device(np.array([0, 2, 1, 3, 3], np.int32))
        bval, bcol = rm.to_device(np.full(12, 7.0)), rm.to_device(np.full(3, -3, np.int32))
        faults(h, lambda: rs.dcsr2bsr(h, 0, M, N, a.descr(), v, p, i, 2, rs.create_mat_descr(), bval, bptr, bcol),
               ("bsr_row_ptr[2] = 1 is below bsr_row_ptr[1] = 2",))
        assert not np.any(bval.get() != 7.0) and not np.any(bcol.get() != -3)
        # ell2csr with a one-based row pointer described as zero-based
        col, val, width = _ell(general(6))
        cptr = rm.to_device(a.ptr + 1)
        cval = rm.to_device(np.full(a.nnz, 7.0))
        faults(h, lambda: rs.dell2csr(h, M, N, rs.create_mat_descr(), width, rm.to_device(val), rm.to_device(col),
                                      rs.create_mat_descr(), cval, cptr, rm.to_device(np.zeros(a.nnz, np.int32))),
               (f"csr_row_ptr[{first_bad_offset(a.ptr + 1, 0, a.nnz)}] =", f"outside the {a.nnz} stored entries"))
        assert not np.any(cval.get() != 7.0)
        # csrgemm's compute stage with C's row pointer shifted past its entries
        info, d = rs.create_mat_info(), a.descr()
        b = Csr.of(sp.random(N, 4, 0.6, random_state=1, format="csr"))
        bv, bp, bi = b.device()
        size = rs.dcsrgemm_buffer_size(h, "N", "N", M, 4, N, 1.0, d, a.nnz, p, i, d, b.nnz, bp, bi, None, d, 0, None,
                                       None, info)
        buf = rm.empty(max(size, 1), np.uint8)
        c_ptr = rm.to_device(np.zeros(M + 1, np.int32))
        nnz = rs.csrgemm_nnz(h, "N", "N", M, 4, N, d, a.nnz, p, i, d, b.nnz, bp, bi, d, 0, None, None, d, c_ptr, None,
                             info, buf)
        good = c_ptr.get()
        c_ptr.set(np.concatenate([[-1], good[1:]]).astype(np.int32))
        c_val = rm.to_device(np.full(nnz + 1, 7.0))  # (room for the span the shifted pointer claims)
        c_ind = rm.to_device(np.full(nnz + 1, -3, np.int32))
        faults(h, lambda: rs.dcsrgemm(h, "N", "N", M, 4, N, 1.0, d, a.nnz, v, p, i, d, b.nnz, bv, bp, bi, None, d, 0,
                                      None, None, None, d, c_val, c_ptr, c_ind, info, buf),
               (f"csr_row_ptr_C[0] = -1 points outside the {nnz + 1} stored entries",))
        assert not np.any(c_val.get() != 7.0) and not np.any(c_ind.get() != -3)


@pytest.mark.parametrize("by_row", [True, False])
def test_coosort_scans_its_sort_keys_of_either_base(by_row):
    """coosort takes no index base: keys in [0, m] (rows; columns [0, n] by column) are valid zero- or one-based
    and give the bits of an unchecked sort; a negative key or one past that faults, the arrays unsorted."""
    c = Coo.of(general(8))
    order = np.random.default_rng(8).permutation(c.row.size)
    rows, cols = c.row[order], c.col[order]
    limit, what, name = (M, "rows", "coo_row_ind") if by_row else (N, "columns", "coo_col_ind")
    sort = rs.coosort_by_row if by_row else rs.coosort_by_column

    def run(h, arrays, out, ref):
        r, k = out(arrays[0]), out(arrays[1])
        size = rs.coosort_buffer_size(h, M, N, r.size, r, k)
        sort(h, M, N, r.size, r, k, out(np.arange(r.size, dtype=np.int32)), rm.empty(max(size, 1), np.uint8))

    with stream_handle() as h:
        for shift in (0, 1):
            same_bits_as_unchecked(run, h, (rows + shift, cols + shift))
        for bad in (-1, limit + 1):
            r, k = rows.copy(), cols.copy()
            (r if by_row else k)[3] = bad
            out = Outs()
            faults(h, lambda r=r, k=k, out=out: run(h, (r, k), out, None),
                   (f"{name}[3] = {bad} is outside the {limit} {what} (index base 0 or 1)",))
            assert out.untouched()
