"""hipSOLVER's sparse API -- the cuSOLVER-Sp-like ``hipsolverSp*`` names of hipsolver-sparse.h -- as hipSOLVER's
AMD backend has it (library/src/amd_detail/hipsolver_sparse.cpp), over rocmath.solver's ``csrrf_*`` routines.

A ``hipsolverSpHandle_t`` (:class:`hipsolverSpHandle_t`, its target an :class:`SpHandle`) owns a rocBLAS handle
(``hipsolverSpSetStream`` sets its stream; the rfinfo's rocSPARSE handle keeps the stream the Sp handle was made
on, the null stream, as rocSOLVER fixes it when it makes the rfinfo), a ``rocsolver_rfinfo`` and one device buffer
(A's zero-based copies, T, Q), grown on demand and freed by ``hipsolverSpDestroy``.  ``hipsolverSpCreate() ->
(status, handle)``: hip-python passes the out-pointer itself, so hipSOLVER's NULL case (NOT_INITIALIZED) cannot
arise.  A NULL handle, or anything that is no live Sp handle, is NOT_INITIALIZED everywhere.

``hipsolverSp{S,D}csrlsvchol[Host](handle, n, nnzA, descrA, csrVal, csrRowPtr, csrColInd, b, tolerance,
reorder, x, singularity)`` solve ``A x = b`` by a sparse Cholesky factorization.  hipSOLVER hands the CSR arrays
to CHOLMOD as a CSC matrix of stype 1, so only A's lower triangle (each entry with column <= row) is factored:
the symmetric matrix is that triangle and its mirror, whatever the rest of the rows holds.  Checks, in hipSOLVER's
order: the handle (NOT_INITIALIZED); ``n < 0`` or ``nnzA < 0``; ``descrA`` NULL (or no live
``hipsparseMatDescr_t``); ``csrRowPtr``, ``csrColInd``, ``csrVal`` NULL; ``b``, ``x``, ``singularity`` NULL;
``reorder`` outside 0..3 (all INVALID_VALUE); a matrix type other than general, then an index base other than
zero or one (MATRIX_TYPE_NOT_SUPPORTED).  Then ``*singularity = -1`` (host memory in both variants).  The rows
are taken as CHOLMOD and rocSOLVER take them: sorted by column; offsets outside ``0..nnzA`` or decreasing, and
columns outside ``0..n-1``, raise MemoryAccessFault (EXECUTION_FAILED), where C would read stray memory.

Orderings: reorder 0 is the natural one.  hipSOLVER asks CHOLMOD for AMD (reorder 1, cuSOLVER's symrcm, and 2)
or METIS (3); CHOLMOD is not available here, so 1, 2 and 3 all use SuperLU's multiple minimum degree ordering of
the lower triangle's symmetric pattern (SciPy's ``splu(..., permc_spec="MMD_AT_PLUS_A")`` column permutation, on a
diagonally dominant matrix of that pattern), a fill-reducing ordering too, but not CHOLMOD's: factors and the
host variant's singularity index follow the ordering used (no postordering, as hipSOLVER asks CHOLMOD).

- **Device** (``csrlsvchol``: A, b, x device memory): A's pattern is copied to the host (one-based: converted
  there), with ``tolerance > 0`` CHOLMOD's ``cholmod_drop`` runs on that pattern-only copy, which only removes
  the upper triangle from it (no value is dropped, whatever the tolerance); the ordering, the elimination tree
  and T's pattern follow as hipSOLVER's ``gen_sparsity_pattern`` builds it: row ``i`` of T is ``i`` and the tree
  paths from each entry of the permuted matrix's row ``i`` left of ``i``.  One departure: hipSOLVER scans the
  stored rows as they are, so a lower triangle stored alone (or any matrix after a drop) with an ordering other
  than the natural one gives a T that misses fill, and a wrong x with SUCCESS; here the rows scanned are the
  lower triangle and its mirror, so T is always L's pattern (the same T as hipSOLVER's whenever its is right,
  e.g. for a fully stored symmetric pattern).  x := b
  (``hipMemcpy``), then, the rfinfo in cholesky mode, ``csrrf_analysis`` (nrhs 1), ``csrrf_refactchol`` and
  ``csrrf_solve`` on the handle's stream in the precision of the call (float data stays float): zero-based A is
  read from the caller's arrays, one-based A from converted copies (after a drop those hold the dropped pattern,
  while the values are still read from ``csrVal`` at its positions, as in hipSOLVER).  ``singularity`` stays -1
  whatever the factorization meets (a matrix that is not positive definite gives some x, with status SUCCESS):
  hipSOLVER never reads a pivot back.  The rfinfo's analysis policy is rocSOLVER's reuse: a later call on the
  same handle keeps the triangular-solve analyses of the first (right for the same pattern; for another one the
  solves run on stale schedules, rocmath reporting other sizes as INVALID_VALUE).  ``n == 0`` solves nothing,
  but on a handle that never solved it is INTERNAL_ERROR (hipSOLVER writes through its unset buffer pointers).
- **Host** (``csrlsvcholHost``: every array host memory): CHOLMOD on the values, in double precision (float data
  converted, as hipSOLVER's ``prep_input``/``prep_output``); ``tolerance > 0`` drops the upper triangle and every
  entry with ``|a| <= tolerance`` before the analysis.  A matrix that is not positive definite sets
  ``singularity`` to CHOLMOD's ``L->minor``, the first column of the permuted matrix whose pivot is not positive
  (the column of A itself with reorder 0), and leaves x untouched; else x is solved.  The factorization is
  rocmath's: the same csrrf path on temporary device copies (T is L's exact pattern), with a rocBLAS handle and
  rfinfo of its own on the null stream (so the call waits for earlier work on the blocking streams), and the
  pivot from ``csric0_singular_pivot`` (the first row whose pivot square is ``<= 0``, CHOLMOD's test).

Out-parameters follow rocmath.hip's convention: ``singularity`` given, the value is written through it (a
``ctypes.c_int`` is its own storage) and ``(status,)`` returned; omitted, ``(status, singularity)`` is returned.
``n``, ``nnzA``, ``tolerance`` (a C ``float`` in the S functions: rounded) and ``reorder`` convert as
hip-python's Cython converts them, in that order, before any status.
hipSOLVER's complex variants are commented out of its sources and absent from hip-python 6.2: not provided.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import numpy as np
import scipy.sparse as _scs
import scipy.sparse.linalg as _sla

import rocmath
import rocmath.blas as _blas
import rocmath.solver as _solver
from rocmath.errors import MemoryAccessFault
from rocmath.solver import RfinfoMode

from . import hip as _hip
from ._api import binding
from ._hipsolver_rf import _bind, _Entry, _error, _nonnull, _status
from ._lib import Opaque, find, read_host, stream_of, write_host
from ._types import device_address, pointer_value
from .hipsparse import hipsparseMatDescr_t

__all__ = ["SP_NAMES", "SpHandle", "hipsolverSpHandle_t", "sp_api"]

_I4 = np.dtype(np.int32)


def _rounded(nbytes: int) -> int:
    """hipSOLVER's 128-byte rounding of each array in its buffers."""
    return -(-nbytes // 128) * 128


# --- the handle -------------------------------------------------------------------------------------------------


@dataclass
class SpHandle:
    """hipSOLVER's ``hipsolverSpHandle`` (what a :class:`hipsolverSpHandle_t` points to).

    Attributes
    ----------
    blas, rfinfo
        The rocBLAS handle (its stream: SetStream's) and the ``rocsolver_rfinfo`` made for it.
    d_n, d_nnzA, d_nnzT
        The sizes the device buffer holds (hipSOLVER never records nnzA: it stays 0, so every one-based call
        makes the buffer anew).
    d_buffer, d
        The device buffer (0: none yet) and the address of each array in it: PtrA, PtrT, IndA, IndT, Q, ValT.
    """

    blas: Any
    rfinfo: Any
    d_n: int = 0
    d_nnzA: int = 0
    d_nnzT: int = 0
    d_buffer: int = 0
    d: dict[str, int] = field(default_factory=dict)

    def malloc_device(self, n: int, nnzA: int, nnzT: int) -> None:
        """hipSOLVER's ``malloc_device``: a new buffer when one size exceeds what the buffer holds."""
        if self.d_n >= n and self.d_nnzA >= nnzA and self.d_nnzT >= nnzT:
            return
        self.free_device()
        sizes = {"PtrA": 4 * (n + 1), "PtrT": 4 * (n + 1), "IndA": 4 * nnzA, "IndT": 4 * nnzT, "Q": 4 * n,
                 "ValT": 8 * nnzT}
        base = rocmath.malloc(sum(_rounded(s) for s in sizes.values()))
        offset = 0
        for name, size in sizes.items():
            self.d[name] = base + offset
            offset += _rounded(size)
        self.d_buffer, self.d_n, self.d_nnzT = base, n, nnzT

    def free_device(self) -> None:
        """Release the buffer (a failed reallocation then leaves none, rather than hipSOLVER's dangling one)."""
        if self.d_buffer:
            rocmath.free(self.d_buffer)
        self.d_buffer, self.d, self.d_n, self.d_nnzT = 0, {}, 0, 0


class hipsolverSpHandle_t(Opaque):
    """A ``hipsolverSpHandle_t`` (its :attr:`target` an :class:`SpHandle`)."""


# --- what the regular module provides (set by sp_api) --------------------------------------------------------------

_R: Any = None


def _sp(obj: Any) -> SpHandle:
    """The handle argument: NULL (or no live Sp handle) is NOT_INITIALIZED."""
    found = find(obj, hipsolverSpHandle_t)
    if found is None:
        what = "null handle" if pointer_value(obj) == 0 else "not a live hipsolverSpHandle_t"
        raise _status("NOT_INITIALIZED", what, "handle")
    return found.target  # type: ignore[no-any-return]


def _fault(name: str, arg: str, why: str) -> MemoryAccessFault:
    return MemoryAccessFault(f"{name}: argument '{arg}': {why}")


# --- the symbolic analysis (CHOLMOD's part, on the host) --------------------------------------------------------


def _prep_input(one_based: bool, n: int, nnz: int, ptr: np.ndarray, ind: np.ndarray) -> None:
    """hipSOLVER's ``prep_input`` of the pattern, in place: one-based offsets and the first ``min(nnz, ptr[n])``
    columns made zero-based."""
    if one_based:
        ptr -= 1
        ind[:max(0, min(nnz, int(ptr[n])))] -= 1


def _entries(name: str, n: int, nnz: int, ptr: np.ndarray, ind: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(row, column) of each stored entry, in storage order; offsets and columns C would read stray memory with
    raise MemoryAccessFault."""
    p = ptr.astype(np.int64)
    bad = np.flatnonzero((p < 0) | (p > nnz))
    if bad.size:
        raise _fault(name, "csrRowPtr", f"offset {int(p[bad[0]])} at {int(bad[0])} is outside [0, {nnz}]")
    dec = np.flatnonzero(np.diff(p) < 0)
    if dec.size:
        raise _fault(name, "csrRowPtr", f"offsets decrease at {int(dec[0]) + 1}")
    cols = ind[p[0]:p[n]].astype(np.int64)
    bad = np.flatnonzero((cols < 0) | (cols >= n))
    if bad.size:
        raise _fault(name, "csrColInd", f"column {int(cols[bad[0]])} at {int(p[0] + bad[0])} is outside [0, {n})")
    return np.repeat(np.arange(n, dtype=np.int64), np.diff(p)), cols


def _ordering(n: int, rows: np.ndarray, cols: np.ndarray, reorder: int) -> np.ndarray:
    """new -> old: natural for reorder 0, else SuperLU's MMD on the lower triangle's symmetric pattern."""
    if reorder == 0 or n == 0:
        return np.arange(n, dtype=np.int32)
    off = (cols < rows)
    r, c = rows[off], cols[off]
    pattern = _scs.csr_matrix((np.ones(2 * r.size), (np.r_[r, c], np.r_[c, r])), shape=(n, n))
    pattern.data[:] = -1.0
    degree = np.diff(pattern.indptr)
    m = (pattern + _scs.diags(degree + 1.0)).tocsc()  # strictly diagonally dominant: splu never fails
    lu = _sla.splu(m, permc_spec="MMD_AT_PLUS_A")
    return np.argsort(lu.perm_c).astype(np.int32)


def _etree(n: int, old2new: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> list[int]:
    """The elimination tree (parent, -1 at roots) of the permuted symmetric matrix whose strictly lower triangle
    is the entries (rows, cols) with cols < rows (cholmod_analyze_ordering's Parent; cs_etree's algorithm)."""
    off = cols < rows
    i, j = old2new[rows[off]], old2new[cols[off]]
    hi, lo = np.maximum(i, j), np.minimum(i, j)
    order = np.argsort(hi, kind="stable")
    hi, lo = hi[order], lo[order].tolist()
    starts = np.searchsorted(hi, np.arange(n + 1)).tolist()
    parent, ancestor = [-1] * n, [-1] * n
    for k in range(n):
        for p in range(starts[k], starts[k + 1]):
            t = lo[p]
            while t != -1 and t < k:
                nxt = ancestor[t]
                ancestor[t] = k
                if nxt == -1:
                    parent[t] = k
                t = nxt
    return parent


def _sparsity_pattern(n: int, ptr: np.ndarray, ind: np.ndarray, new2old: np.ndarray,
                      parent: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """hipSOLVER's ``gen_sparsity_pattern``: T's rows (sorted columns), row ``i`` being ``i`` and the tree paths
    from each entry left of ``i`` in row ``new2old[i]`` of the stored pattern (every entry, either triangle)."""
    old2new = np.empty(n, np.int64)
    old2new[new2old] = np.arange(n)
    o2n, p, cols = old2new.tolist(), ptr.tolist(), ind.tolist()
    mark = [-1] * n
    tp, ti = [0], []
    for i, iold in enumerate(new2old.tolist()):
        mark[i] = i
        row = {i}
        for k in range(p[iold], p[iold + 1]):
            j = o2n[cols[k]]
            if j < i:
                while 0 <= j < n and mark[j] != i:
                    mark[j] = i
                    row.add(j)
                    j = parent[j]
        ti += sorted(row)
        tp.append(len(ti))
    return np.array(tp, np.int32), np.array(ti, np.int32)


def _mirrored(n: int, rows: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows (offsets, sorted columns) of the pattern of the lower triangle of the entries (rows, cols) and
    its mirror: the symmetric matrix CHOLMOD factors, whose row scan gives L's whole pattern (explicit zeros
    count: the pattern is built from ones)."""
    low = cols <= rows
    r, c = rows[low], cols[low]
    m = _scs.csr_matrix((np.ones(2 * r.size), (np.r_[r, c], np.r_[c, r])), shape=(n, n))
    m.sum_duplicates()
    return m.indptr, m.indices


@dataclass
class _Symbolic:
    """The analysis of one call: the ordering (new -> old) and T's pattern."""

    new2old: np.ndarray
    ptrT: np.ndarray
    indT: np.ndarray


def _symbolic(n: int, rows: np.ndarray, cols: np.ndarray, reorder: int, scan_ptr: np.ndarray,
              scan_ind: np.ndarray) -> _Symbolic:
    """The ordering and elimination tree of the matrix CHOLMOD holds (its entries (rows, cols): the part with
    cols <= rows is the one it reads), and T's pattern from the rows of (scan_ptr, scan_ind)."""
    new2old = _ordering(n, rows, cols, reorder)
    old2new = np.empty(n, np.int64)
    old2new[new2old] = np.arange(n)
    parent = _etree(n, old2new, rows, cols)
    return _Symbolic(new2old, *_sparsity_pattern(n, scan_ptr, scan_ind, new2old, parent))


def _band(n: int, ptr: np.ndarray, ind: np.ndarray, rows: np.ndarray, cols: np.ndarray,
          keep: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """CHOLMOD's in-place compaction of the kept entries (cholmod_drop, band_inplace): offsets from 0, the kept
    columns at the front of ``ind`` (the rest as it was); returns the kept (rows, cols)."""
    ptr[0] = 0
    ptr[1:] = np.cumsum(np.bincount(rows[keep], minlength=n))
    ind[:int(np.count_nonzero(keep))] = cols[keep]
    return rows[keep], cols[keep]


# --- the functions -------------------------------------------------------------------------------------------------


def _create() -> Any:
    h = _blas.create_handle()
    try:
        info = _solver.create_rfinfo(h)
    except BaseException:
        _blas.destroy_handle(h)
        raise
    return hipsolverSpHandle_t.new(SpHandle(h, info))


def _destroy(a: SimpleNamespace) -> None:
    sp = _sp(a.handle)
    sp.free_device()
    _solver.destroy_rfinfo(sp.rfinfo)
    _blas.destroy_handle(sp.blas)
    found = find(a.handle, hipsolverSpHandle_t)
    assert found is not None
    found.release()


def _set_stream(a: SimpleNamespace) -> None:
    sp = _sp(a.handle)
    sp.blas.set_stream(stream_of(a.streamId, "streamId", _R._value_error))  # rocblas_set_stream


def _emit(a: SimpleNamespace, value: int) -> None:
    """``*singularity = value``: written through the given pointer, or kept for the return."""
    if a.present:
        write_host(a.singularity, value, _I4, "singularity", _error)
    a.result = value


def _csrlsvchol(a: SimpleNamespace, host: bool, single: bool) -> int:
    """hipSOLVER's checks in its order, ``*singularity = -1``, then the variant's solve; the singularity."""
    sp = _sp(a.handle)
    if a.n < 0 or a.nnzA < 0:
        raise _status("INVALID_VALUE", f"negative size (n {a.n}, nnzA {a.nnzA})", "n" if a.n < 0 else "nnzA")
    found = find(a.descrA, hipsparseMatDescr_t)
    if found is None:
        raise _status("INVALID_VALUE", "null" if pointer_value(a.descrA) == 0 else "not a live descriptor", "descrA")
    _nonnull(a, "csrRowPtr", "csrColInd", "csrVal")
    _nonnull(a, "b", "x", *(("singularity",) if a.present else ()))
    if not 0 <= a.reorder <= 3:
        raise _status("INVALID_VALUE", f"reorder must be 0..3, got {a.reorder}", "reorder")
    descr = found.target
    if int(descr.type) != 0:
        raise _status("MATRIX_TYPE_NOT_SUPPORTED", f"the matrix type must be general, got {descr.type!r}", "descrA")
    if int(descr.base) not in (0, 1):
        raise _status("MATRIX_TYPE_NOT_SUPPORTED", f"index base {descr.base!r}", "descrA")
    _emit(a, -1)
    (_host_solve if host else _device_solve)(a, sp, int(descr.base) == 1, single)
    return a.result  # type: ignore[no-any-return]


def _device_solve(a: SimpleNamespace, sp: SpHandle, one_based: bool, single: bool) -> None:
    """csrlsvchol: the symbolic analysis of A's pattern on the host, the factorization and solve by csrrf."""
    n, nnzA = a.n, a.nnzA
    ptr, ind = np.zeros(n + 1, _I4), np.zeros(nnzA, _I4)
    for host, arg in ((ptr, "csrRowPtr"), (ind, "csrColInd")):  # hipMemcpy, device to host
        if host.nbytes:
            rocmath.memcpy(host, _hip._copy_side(getattr(a, arg), host.nbytes, arg), host.nbytes)
    _prep_input(one_based, n, nnzA, ptr, ind)
    rows, cols = _entries(a.name, n, nnzA, ptr, ind)
    if a.tolerance > 0:  # cholmod_drop of a pattern: the ignored (upper) triangle only
        rows, cols = _band(n, ptr, ind, rows, cols, cols <= rows)
    s = _symbolic(n, rows, cols, a.reorder, *_mirrored(n, rows, cols))
    if n == 0 and not sp.d_buffer:
        raise _status("INTERNAL_ERROR", "n = 0 on a handle that never solved: hipSOLVER's buffers are unset",
                      "handle")
    nnzT = int(s.indT.size)
    sp.malloc_device(n, nnzA if one_based else 0, nnzT)
    d = sp.d
    if one_based:
        ptrA, indA = d["PtrA"], d["IndA"]
        rocmath.memcpy(ptrA, ptr, ptr.nbytes)
        if ind.nbytes:
            rocmath.memcpy(indA, ind, ind.nbytes)
    else:
        ptrA, indA = device_address(a.csrRowPtr), device_address(a.csrColInd)
    for name, host in (("PtrT", s.ptrT), ("IndT", s.indT), ("Q", s.new2old)):
        if host.nbytes:
            rocmath.memcpy(d[name], host, host.nbytes)
    nbytes = (4 if single else 8) * n
    if nbytes:  # x := b, hipMemcpy device to device
        rocmath.memcpy(_hip._copy_side(a.x, nbytes, "x"), _hip._copy_side(a.b, nbytes, "b"), nbytes)
    x = device_address(a.x)
    p = "s" if single else "d"
    val = device_address(a.csrVal)
    _solver.set_rfinfo_mode(sp.rfinfo, RfinfoMode.cholesky)
    T = (nnzT, d["PtrT"], d["IndT"], d["ValT"])
    getattr(_solver, f"{p}csrrf_analysis")(sp.blas, n, 1, nnzA, ptrA, indA, val, *T, None, d["Q"], x, n,
                                           sp.rfinfo)
    getattr(_solver, f"{p}csrrf_refactchol")(sp.blas, n, nnzA, ptrA, indA, val, *T, d["Q"], sp.rfinfo)
    getattr(_solver, f"{p}csrrf_solve")(sp.blas, n, 1, *T, None, d["Q"], x, n, sp.rfinfo)


def _host_solve(a: SimpleNamespace, sp: SpHandle, one_based: bool, single: bool) -> None:
    """csrlsvcholHost: CHOLMOD's drop, analysis, factorization (the singularity) and solve, in double."""
    n, nnzA = a.n, a.nnzA
    real = np.dtype(np.float32 if single else np.float64)
    ptr = read_host(a.csrRowPtr, _I4, n + 1, "csrRowPtr", _error)
    ind = read_host(a.csrColInd, _I4, nnzA, "csrColInd", _error)
    val = read_host(a.csrVal, real, nnzA, "csrVal", _error)
    assert ptr is not None and ind is not None and val is not None
    _prep_input(one_based, n, nnzA, ptr, ind)
    rows, cols = _entries(a.name, n, nnzA, ptr, ind)
    vals = val[int(ptr[0]):int(ptr[n])].astype(np.float64)
    keep = cols <= rows  # CHOLMOD factors the stype 1 part only; cholmod_drop also removes |a| <= tolerance
    if a.tolerance > 0:
        keep &= ~(np.abs(vals) <= a.tolerance)
    rows, cols, vals = rows[keep], cols[keep], vals[keep]
    # A's lower triangle (rows sorted, as csrrf_refactchol reads them); T from its symmetric pattern: L's own.
    lower = _scs.csr_matrix((vals, (rows, cols)), shape=(n, n))
    lower.sort_indices()
    s = _symbolic(n, rows, cols, a.reorder, *_mirrored(n, rows, cols))
    if n == 0:
        return
    bvec = read_host(a.b, real, n, "b", _error)
    assert bvec is not None
    pivot, xvec = _factor_solve(n, lower, s, bvec.astype(np.float64))
    if pivot >= 0:
        _emit(a, pivot)
        return
    write_host(a.x, xvec.astype(real), real, "x", _error)


def _factor_solve(n: int, lower: _scs.csr_matrix, s: _Symbolic, b: np.ndarray) -> tuple[int, np.ndarray]:
    """CHOLMOD's factorize and solve through rocmath's csrrf path on temporary device copies: (the first
    non-positive pivot's column of the permuted matrix, -1 for none; x)."""
    from rocmath import sparse

    arrays = [lower.indptr.astype(_I4), lower.indices.astype(_I4), lower.data.astype(np.float64), s.ptrT,
              s.indT, np.zeros(s.indT.size), s.new2old, b]
    sizes = [_rounded(max(h.nbytes, 1)) for h in arrays]
    base = rocmath.malloc(sum(sizes))
    at = (base + np.cumsum([0, *sizes[:-1]])).tolist()
    h = _blas.create_handle()
    r = None
    try:
        for addr, host in zip(at, arrays, strict=True):
            if host.nbytes:
                rocmath.memcpy(addr, host, host.nbytes)
        r = _solver.create_rfinfo(h)
        _solver.set_rfinfo_mode(r, RfinfoMode.cholesky)
        A, T = (lower.nnz, *at[0:3]), (s.indT.size, *at[3:6])
        _solver.dcsrrf_analysis(h, n, 1, *A, *T, None, at[6], at[7], n, r)
        _solver.dcsrrf_refactchol(h, n, *A, *T, at[6], r)
        pivot = int(sparse.csric0_singular_pivot(r.sphandle, r.infoT, None))
        if pivot >= 0:
            return pivot, b
        _solver.dcsrrf_solve(h, n, 1, *T, None, at[6], at[7], n, r)
        x = np.empty(n)
        rocmath.memcpy(x, at[7], x.nbytes)
        return -1, x
    finally:
        if r is not None:
            _solver.destroy_rfinfo(r)
        _blas.destroy_handle(h)
        rocmath.free(base)


# --- the bindings --------------------------------------------------------------------------------------------------

_SOLVE = "handle n nnzA descrA csrVal csrRowPtr csrColInd b tolerance reorder x singularity"


def _solver_entry(host: bool, single: bool) -> _Entry:
    where = ("host arrays, CHOLMOD's factorization (rocmath's csrrf on temporary device copies)" if host else
             "device arrays, symbolic analysis on the host, csrrf_analysis / refactchol / solve")
    # hip-python converts n, nnzA, tolerance (a C float in the S functions), reorder, in that order.
    return _Entry(_SOLVE, lambda a: _csrlsvchol(a, host, single), ints=("n", "nnzA", "reorder"),
                  doubles=() if single else ("tolerance",), floats=("tolerance",) if single else (),
                  outs={"singularity": _I4}, writes_outs=False,
                  doc=f"solve A x = b, A symmetric positive definite given by its lower triangle ({where})")


#: hip-python 6.2's hipsolverSp functions (but Create, written out), in its order.
SP_TABLE: dict[str, _Entry] = {
    "hipsolverSpDestroy": _Entry("handle", _destroy, doc="free the handle, its buffer, rfinfo and rocBLAS handle"),
    "hipsolverSpSetStream": _Entry("handle streamId", _set_stream, doc="queue the handle's rocBLAS work on streamId"),
    "hipsolverSpScsrlsvchol": _solver_entry(False, True),
    "hipsolverSpDcsrlsvchol": _solver_entry(False, False),
    "hipsolverSpScsrlsvcholHost": _solver_entry(True, True),
    "hipsolverSpDcsrlsvcholHost": _solver_entry(True, False),
}

#: Every hipsolverSp name bound, hip-python's order.
SP_NAMES = ("hipsolverSpCreate", *SP_TABLE)


def sp_api() -> dict[str, Any]:
    """The hipsolverSp names (functions and the handle class) for :mod:`rocmath.hip.hipsolver`'s namespace and
    ``__all__`` (it calls this at its end): its status table, exception and statuses serve every function here."""
    from . import hipsolver as regular  # at its end: everything but this API is defined (the Rf API too, whose
    # _bind, set up by rf_api, binds these)

    global _R
    _R = regular

    def create() -> Any:
        return _create()

    create.__name__ = create.__qualname__ = "hipsolverSpCreate"
    create.__doc__ = ("hipsolverSpCreate() -> (hipsolverStatus_t, hipsolverSpHandle_t): a new handle (its own "
                      "rocBLAS handle on the null stream and rfinfo, no buffer yet).")
    made: dict[str, Any] = {"hipsolverSpCreate": binding(regular._HIPSOLVER, 1)(create)}
    made.update({name: _bind(name, entry) for name, entry in SP_TABLE.items()})
    made["hipsolverSpHandle_t"] = hipsolverSpHandle_t
    return made
