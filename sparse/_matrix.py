"""Device-resident sparse matrices after ``cupyx.scipy.sparse``, and a SciPy LinearOperator adapter.

``csr_matrix``, ``csc_matrix`` and ``coo_matrix`` hold their arrays in device memory
(DeviceArrays, 0-based indices) and are built from a scipy.sparse matrix, another device
matrix (converted on the device, its arrays shared unless ``copy=True``), or the
``(data, indices, indptr)`` / ``(data, (row, col))`` tuples of scipy.  ``.get()`` copies back to
scipy.sparse.  ``A @ x`` with a DeviceArray runs the generic spmv (1-D) or spmm (2-D) on the
matrix's stream; ``.T`` is a view (CSR and CSC of the same arrays).  Conversions run on the
device: ``tocsr`` / ``tocsc`` / ``tocoo``, COO's summing its duplicates (``sum_duplicates``: a
stable sort by row and column, each sum left to right in storage order), ``sort_indices``,
``astype``, ``conj`` and ``H``; ``has_canonical_format`` and ``has_sorted_indices`` are checked
there too.  Each thread uses one rocSPARSE handle per device (created on first use, as CuPy
does) on the current stream.

Arithmetic follows cupyx's (and scipy's) ``spmatrix``: ``A @ B`` and ``A * B`` of two sparse
matrices is their product, ``A + B`` and ``A - B`` their sum, ``s * A`` and ``-A`` scale, and
``x @ A`` multiplies a DeviceArray from the left.  All of them run as one generic spgemm on the
device (a sum as ``A I + B``, a scaling as ``s A I``), so a result holds the union of its operands'
structures (an entry that cancels stays, as a stored zero); each value of a sum, a difference or a
scaling by a real number is rounded once, bitwise scipy's (a complex scaling may fuse its real
part).  ``toarray()`` expands into a dense DeviceArray (sparse_to_dense).
"""

from __future__ import annotations

import functools
import threading
from typing import Any

import numpy as np
import scipy.sparse

import rocmath
from rocmath.precision import Precision

from . import _kernels as k
from . import _kernels_conv as kc
from . import _kernels_matrix as km
from ._descr import (
    create_coo_descr,
    create_csc_descr,
    create_csr_descr,
    create_dnmat_descr,
    create_dnvec_descr,
    csr_set_pointers,
    spmat_get_size,
)
from ._generic import spmm, spmv
from ._generic_ops import sparse_to_dense, spgemm
from ._handle import MatDescr, SparseHandle, create_handle, create_mat_descr
from ._level2 import ccsrmv, dcsrmv, scsrmv, zcsrmv
from ._types import (
    Datatype,
    IndexBase,
    IndexType,
    Operation,
    Order,
    SparseToDenseAlg,
    SpGEMMAlg,
    SpGEMMStage,
    SpMMAlg,
    SpMMStage,
    SpMVAlg,
    SpMVStage,
)

__all__ = ["aslinearoperator", "coo_matrix", "csc_matrix", "csr_matrix", "issparse"]

_local = threading.local()


def _handle() -> SparseHandle:
    """This thread's handle for the current device, on the current stream."""
    dev = rocmath.get_device()
    handles = getattr(_local, "handles", None)
    if handles is None:
        handles = _local.handles = {}
    h = handles.get(dev)
    if h is None or h._destroyed or h.device.retired:
        h = handles[dev] = create_handle()
    h.set_stream(rocmath.current_stream())
    return h


_CSRMV = {np.dtype(np.float32): scsrmv, np.dtype(np.float64): dcsrmv, np.dtype(np.complex64): ccsrmv,
          np.dtype(np.complex128): zcsrmv}


@functools.cache
def _general_descr() -> MatDescr:
    """The matrix descriptor of the array layer's CSR products (general, base zero; never changed)."""
    return create_mat_descr()


def _dev(a: Any, dtype: Any) -> rocmath.DeviceArray:
    """``a`` as a DeviceArray of ``dtype``: itself when it is one already, converted on the device
    when it is a DeviceArray of another type, else copied to the device."""
    if isinstance(a, rocmath.DeviceArray):
        return a if a.dtype == np.dtype(dtype) else _convert(a, dtype)
    return rocmath.to_device(np.ascontiguousarray(a, dtype=dtype))


def _convert(a: rocmath.DeviceArray, dtype: Any, conj: bool = False) -> rocmath.DeviceArray:
    """A new DeviceArray of ``a``'s shape with its values as ``dtype`` (numpy's ``astype``: complex
    to real keeps the real part), conjugated when ``conj``, converted on the current stream."""
    dt = np.dtype(dtype)
    if not a.is_contiguous:
        a = a.copy()
    order = "C" if a.c_contiguous else "F"
    out = rocmath.empty(a.shape, dt, order=order)
    if a.size:
        kern = km.conjugate if conj else km.cast_real if a.dtype.kind == "c" and dt.kind != "c" else km.cast
        rocmath.launch(kern, a.reshape(-1, order=order), out.reshape(-1, order=order), name=f"astype {dt}",
                       stream=rocmath.current_stream(), bytes=float(a.nbytes + out.nbytes))
    return out


def _value_dtype(dtype: Any) -> np.dtype[Any]:
    dt = np.dtype(dtype)
    if dt.kind in "biu":
        return np.dtype(np.float64)
    return Precision.of(dt).dtype


def _index_dtype(a: Any) -> np.dtype[Any]:
    return a.row.dtype if a.format == "coo" else a.indices.dtype


def _cast(a: csr_matrix, dtype: np.dtype[Any], itype: np.dtype[Any]) -> csr_matrix:
    """``a`` with values of ``dtype`` and indices of ``itype`` (itself when they are its own)."""
    if a.dtype == dtype and a.indices.dtype == itype:
        return a
    return csr_matrix((_dev(a.data, dtype), _dev(a.indices, itype), _dev(a.indptr, itype)), a.shape)


def _operands(*mats: Any, scalar: Any = None) -> list[csr_matrix]:
    """The operands as CSR matrices of one value type and one index type (the widest of theirs,
    and of ``scalar``'s under numpy's rules): what one spgemm takes."""
    dtype = _value_dtype(np.result_type(*(m.dtype for m in mats), *(() if scalar is None else (scalar,))))
    itype = np.result_type(*(_index_dtype(m) for m in mats))
    return [_cast(m.tocsr(), dtype, itype) for m in mats]


def _identity(n: int, like: csr_matrix) -> csr_matrix:
    it = like.indices.dtype
    return csr_matrix((np.ones(n, like.dtype), np.arange(n, dtype=it), np.arange(n + 1, dtype=it)), (n, n))


def _spgemm(alpha: Any, a: csr_matrix, b: csr_matrix, beta: Any = None, d: csr_matrix | None = None) -> csr_matrix:
    """``alpha a b + beta d`` (beta None: no d) as one generic spgemm, for CSR operands of one value
    type and one index type; the result's columns sorted in each row."""
    m, n = a.shape[0], b.shape[1]
    dt, it = a.dtype, a.indices.dtype
    ct, itype = Datatype.of(dt), IndexType.of(it)
    ptr = rocmath.empty(m + 1, it)
    c = create_csr_descr(m, n, 0, ptr, None, None, itype, itype, IndexBase.zero, ct)
    h = _handle()
    with h.use_pointer_mode(0):
        args = (h, Operation.none, Operation.none, dt.type(alpha), a._descr(), b._descr(),
                None if beta is None else dt.type(beta), c if d is None else d._descr(), c, ct, SpGEMMAlg.default)
        tmp = rocmath.empty(max(1, spgemm(*args, SpGEMMStage.buffer_size)), np.uint8)
        spgemm(*args, SpGEMMStage.nnz, None, tmp)
        nnz = spmat_get_size(c)[2]
        ind, val = rocmath.empty(nnz, it), rocmath.empty(nnz, dt)
        csr_set_pointers(c, ptr, ind, val)
        spgemm(*args, SpGEMMStage.compute, None, tmp)
    return csr_matrix((val, ind, ptr), (m, n))


def _is_scalar(x: Any) -> bool:
    return isinstance(x, int | float | complex | np.number) or (isinstance(x, np.ndarray) and x.ndim == 0)


class _SparseArithmetic:
    """The operators CSR, CSC and COO share (see the module docstring); each goes through CSR."""

    format = ""
    shape: tuple[int, int]
    data: rocmath.DeviceArray
    # numpy defers to these operators (``np.float32(2) * A`` calls ``A.__rmul__``) instead of
    # making an object array of the matrix.
    __array_ufunc__ = None

    @property
    def dtype(self) -> np.dtype[Any]:
        raise NotImplementedError

    def tocsr(self) -> csr_matrix:
        raise NotImplementedError

    def _with_data(self, data: rocmath.DeviceArray) -> Any:
        """A matrix of this structure (its index arrays copied) and values ``data``."""
        raise NotImplementedError

    def copy(self) -> Any:
        """A copy (new device arrays)."""
        return self._with_data(self.data.copy())

    def astype(self, dtype: Any) -> Any:
        """A copy with values of ``dtype`` (converted on the device)."""
        return self._with_data(_convert(self.data, _value_dtype(dtype)))

    def conj(self) -> Any:
        """The complex conjugate (a copy; of a real matrix, the same values)."""
        return self._with_data(_convert(self.data, self.dtype, conj=self.dtype.kind == "c"))

    conjugate = conj

    @property
    def H(self) -> Any:
        """The conjugate transpose."""
        return self.conj().T  # type: ignore[attr-defined]

    def _matmul_sparse(self, other: Any) -> csr_matrix:
        if self.shape[1] != other.shape[0]:
            raise ValueError(f"dimension mismatch: {self.shape} @ {other.shape}")
        a, b = _operands(self, other)
        return _spgemm(1, a, b)

    def __rmatmul__(self, other: Any) -> Any:
        """``x @ A`` for a DeviceArray x (a vector or a matrix): ``(A^T x^T)^T``."""
        if not isinstance(other, rocmath.DeviceArray) or other.ndim not in (1, 2):
            return NotImplemented
        if other.shape[-1] != self.shape[0]:
            raise ValueError(f"dimension mismatch: {other.shape} @ {self.shape}")
        t = self.T  # type: ignore[attr-defined]
        return t @ other if other.ndim == 1 else (t @ other.T).T

    def __mul__(self, other: Any) -> Any:
        """``A * s`` scales; ``A * B`` (a sparse matrix or a DeviceArray) is ``A @ B``, as spmatrix's."""
        if _is_scalar(other):
            (a,) = _operands(self, scalar=other)
            return _spgemm(other, a, _identity(a.shape[1], a))
        if issparse(other) or isinstance(other, rocmath.DeviceArray):
            return self @ other  # type: ignore[operator]
        return NotImplemented

    def __rmul__(self, other: Any) -> Any:
        return self * other if _is_scalar(other) else NotImplemented

    def __neg__(self) -> csr_matrix:
        return self * -1  # type: ignore[no-any-return]

    def _sum(self, other: Any, sign: int) -> Any:
        if not issparse(other):
            return NotImplemented
        if self.shape != other.shape:
            raise ValueError(f"inconsistent shapes: {self.shape} and {other.shape}")
        a, b = _operands(self, other)
        return _spgemm(1, a, _identity(a.shape[1], a), sign, b)

    def __add__(self, other: Any) -> Any:
        return self._sum(other, 1)

    def __radd__(self, other: Any) -> Any:
        return self._sum(other, 1)

    def __sub__(self, other: Any) -> Any:
        return self._sum(other, -1)

    def toarray(self, order: str = "C") -> rocmath.DeviceArray:
        """The matrix as a dense DeviceArray in ``order`` ("C" or "F"): rocSPARSE's sparse_to_dense on the
        CSR or CSC arrays (a COO matrix first to CSR, its duplicates summed)."""
        if order not in ("C", "F"):
            raise ValueError(f"order must be 'C' or 'F', got {order!r}")
        a = self if self.format in ("csr", "csc") else self.tocsr()
        m, n = a.shape
        out = rocmath.empty((m, n), a.dtype, order=order)
        if m and n:
            ct = Datatype.of(a.dtype)
            dense = create_dnmat_descr(m, n, m if order == "F" else n, out, ct, Order.column if order == "F"
                                       else Order.row)
            sparse_to_dense(_handle(), a._descr(), dense, SparseToDenseAlg.default, None,  # type: ignore[attr-defined]
                            rocmath.empty(4, np.uint8))
        return out


class _CompressedMatrix(_SparseArithmetic):
    """Shared code of CSR and CSC: ``data``, ``indices`` and ``indptr`` DeviceArrays, 0-based."""

    format = ""

    def __init__(self, arg1: Any, shape: tuple[int, int] | None = None, dtype: Any = None, copy: bool = False):
        canonical: bool | None = None
        if issparse(arg1):  # converted on the device (its arrays shared unless ``copy``, as cupyx's)
            src = arg1.tocsr() if self.format == "csr" else arg1.tocsc()
            if copy and src is arg1:
                src = src.copy()
            shape, canonical = src.shape, src._canonical
            arg1 = (src.data, src.indices, src.indptr)
        elif scipy.sparse.issparse(arg1):
            host = arg1.asformat(self.format)
            host.sum_duplicates()  # canonical form: sorted indices, no duplicates
            shape, canonical = host.shape, True
            arg1 = (host.data, host.indices, host.indptr)
        elif isinstance(arg1, np.ndarray):
            host = scipy.sparse.csr_matrix(arg1).asformat(self.format)
            shape, canonical = host.shape, True
            arg1 = (host.data, host.indices, host.indptr)
        data, indices, indptr = arg1
        if shape is None:
            raise ValueError("shape is required with (data, indices, indptr)")
        self.shape = (int(shape[0]), int(shape[1]))
        vdt = _value_dtype(dtype if dtype is not None else data.dtype)
        idx = np.dtype(indices.dtype) if np.dtype(indices.dtype) in (np.int32, np.int64) else np.dtype(np.int32)
        self.data = _dev(data, vdt)
        self.indices = _dev(indices, idx)
        self.indptr = _dev(indptr, idx)
        self._canonical = canonical  # sorted indices without duplicates (None: not known yet)

    @property
    def dtype(self) -> np.dtype[Any]:
        return self.data.dtype

    @property
    def nnz(self) -> int:
        return self.data.size

    @property
    def ndim(self) -> int:
        return 2

    @property
    def has_canonical_format(self) -> bool:
        """Whether the indices of every row (CSR) or column (CSC) strictly increase: sorted, without
        duplicates (checked on the device once, then remembered)."""
        if self._canonical is None:
            self._canonical = self._rows_sorted(strict=True)
        return self._canonical

    @property
    def has_sorted_indices(self) -> bool:
        """Whether the indices of every row (CSR) or column (CSC) are sorted (duplicates allowed)."""
        return bool(self._canonical) or self._rows_sorted(strict=False)

    def _rows_sorted(self, strict: bool) -> bool:
        out = rocmath.empty(1, np.int8)
        rocmath.launch(km.segments_sorted, self.indptr, self.indices, strict, out, name="has_sorted_indices",
                       stream=_handle().stream, bytes=float(self.indices.nbytes + self.indptr.nbytes))
        return bool(out.get()[0])

    def _descr(self) -> Any:
        it = IndexType.of(self.indices.dtype)
        make = create_csr_descr if self.format == "csr" else create_csc_descr
        return make(self.shape[0], self.shape[1], self.nnz, self.indptr, self.indices, self.data, it, it,
                    IndexBase.zero, Datatype.of(self.dtype))

    def get(self, stream: Any = None) -> Any:
        """A scipy.sparse copy on the host."""
        cls = scipy.sparse.csr_matrix if self.format == "csr" else scipy.sparse.csc_matrix
        return cls((self.data.get(stream), self.indices.get(stream), self.indptr.get(stream)), shape=self.shape)

    def __matmul__(self, other: Any) -> Any:
        if issparse(other):
            return self._matmul_sparse(other)
        if isinstance(other, rocmath.DeviceArray):
            return self._dot_dense(other)
        if isinstance(other, np.ndarray):
            raise TypeError("a device sparse matrix multiplies DeviceArrays: use rocmath.to_device(x)")
        return NotImplemented

    def dot(self, other: Any) -> Any:
        """``self @ other``."""
        return self @ other

    def _csrmv_into(self, h: SparseHandle, x: rocmath.DeviceArray, y: rocmath.DeviceArray) -> None:
        """``y := self @ x`` for a CSR matrix and vectors of its dtype, as one csrmv: the generic API's
        descriptors and stages cost more than a small product, and a repeated call with the same
        vectors is replayed (:mod:`rocmath.plans`)."""
        m, n = self.shape
        one, zero = self.dtype.type(1), self.dtype.type(0)
        with h.use_pointer_mode(0):
            _CSRMV[self.dtype](h, Operation.none, m, n, self.nnz, one, _general_descr(), self.data, self.indptr,
                               self.indices, None, x, zero, y)

    def _dot_dense(self, x: rocmath.DeviceArray) -> rocmath.DeviceArray:
        m, n = self.shape
        if x.shape[0] != n or x.ndim not in (1, 2):
            raise ValueError(f"dimension mismatch: {self.shape} @ {x.shape}")
        dt = np.result_type(self.dtype, x.dtype)
        a = self if dt == self.dtype else self.astype(dt)
        xx = _dev(x, dt)
        h = _handle()
        ct = Datatype.of(dt)
        one, zero = dt.type(1), dt.type(0)
        if x.ndim == 1 and a.format == "csr":
            y = rocmath.empty(m, dt)
            a._csrmv_into(h, xx, y)
            return y
        with h.use_pointer_mode(0):
            mat = a._descr()
            if x.ndim == 1:
                y = rocmath.empty(m, dt)
                dx, dy = create_dnvec_descr(n, xx, ct), create_dnvec_descr(m, y, ct)
                size = spmv(h, Operation.none, one, mat, dx, zero, dy, ct, SpMVAlg.default, SpMVStage.buffer_size)
                tmp = rocmath.empty(max(size, 1), np.uint8)
                spmv(h, Operation.none, one, mat, dx, zero, dy, ct, SpMVAlg.default, SpMVStage.compute, None, tmp)
                return y
            xc = xx if xx.c_contiguous else xx.copy()
            ncols = x.shape[1]
            y = rocmath.empty((m, ncols), dt)
            dB = create_dnmat_descr(n, ncols, max(1, ncols), xc, ct, Order.row)
            dC = create_dnmat_descr(m, ncols, max(1, ncols), y, ct, Order.row)
            size = spmm(h, Operation.none, Operation.none, one, mat, dB, zero, dC, ct, SpMMAlg.default,
                        SpMMStage.buffer_size)
            tmp = rocmath.empty(max(size, 1), np.uint8)
            spmm(h, Operation.none, Operation.none, one, mat, dB, zero, dC, ct, SpMMAlg.default, SpMMStage.compute,
                 None, tmp)
            return y

    def _with_data(self, data: rocmath.DeviceArray) -> Any:
        out = type(self)((data, self.indices.copy(), self.indptr.copy()), self.shape)
        out._canonical = self._canonical
        return out

    def sum_duplicates(self) -> None:
        """Sum duplicate entries and sort the indices, in place (each sum in storage order); nothing
        to do in canonical format."""
        if self.has_canonical_format:
            return
        t = csr_matrix((self.data, self.indices, self.indptr), (self.shape[0], self.shape[1])
                       if self.format == "csr" else (self.shape[1], self.shape[0]))
        merged = t.tocoo()._canonical_csr()
        self.data, self.indices, self.indptr = merged.data, merged.indices, merged.indptr
        self._canonical = True

    def sort_indices(self) -> None:
        """Sort the indices of every row (CSR) or column (CSC) in place, values alongside (stable:
        duplicates keep their order)."""
        if self.has_sorted_indices:
            return
        s = _handle().stream
        perm = rocmath.empty(self.nnz, np.int64)
        rocmath.launch(k.identity, perm, name="sort_indices", stream=s)
        rocmath.launch(kc.sort_segments, self.indptr, 0, self.indices, True, perm, name="sort_indices", stream=s,
                       bytes=float(self.indptr.nbytes + 4 * self.indices.nbytes))
        values = rocmath.empty(self.nnz, self.dtype)
        rocmath.launch(km.gather, self.data, perm, values, name="sort_indices", stream=s,
                       bytes=float(2 * self.data.nbytes + perm.nbytes))
        self.data = values

    def __repr__(self) -> str:
        return (f"<{self.shape[0]}x{self.shape[1]} device sparse matrix of type {self.dtype} with {self.nnz} "
                f"stored elements in {self.format.upper()} format>")


class csr_matrix(_CompressedMatrix):
    """A CSR matrix on the device (see the module docstring)."""

    format = "csr"

    @property
    def T(self) -> csc_matrix:
        """The transpose: a CSC matrix over the same device arrays (no copy)."""
        t = csc_matrix((self.data, self.indices, self.indptr), (self.shape[1], self.shape[0]))
        t._canonical = self._canonical
        return t

    def transpose(self) -> csc_matrix:
        return self.T

    def tocsr(self, copy: bool = False) -> csr_matrix:
        return self.copy() if copy else self

    def tocsc(self, copy: bool = False) -> csc_matrix:
        """The same matrix in CSC form (a device transpose, row indices sorted within columns)."""
        m, n = self.shape
        it = self.indices.dtype
        val, ind, ptr = rocmath.empty(self.nnz, self.dtype), rocmath.empty(self.nnz, it), rocmath.empty(n + 1, it)
        rocmath.launch(k.csr_transpose, True, self.data, self.indptr, self.indices, 0, val, ind, ptr,
                       name="csr_matrix.tocsc", stream=_handle().stream)
        out = csc_matrix((val, ind, ptr), (m, n))
        # Sorted within columns; duplicates (adjacent there) stay as many.
        out._canonical = self._canonical
        return out

    def tocoo(self, copy: bool = False) -> coo_matrix:
        """The same matrix in COO form (in storage order: row-sorted)."""
        rows = rocmath.empty(self.nnz, self.indices.dtype)
        if self.nnz:
            rocmath.launch(k.csr_to_coo_rows, self.indptr, 0, rows, name="csr_matrix.tocoo", stream=_handle().stream)
        out = coo_matrix((self.data.copy(), (rows, self.indices.copy())), self.shape)
        out.has_canonical_format = bool(self._canonical)
        return out


class csc_matrix(_CompressedMatrix):
    """A CSC matrix on the device (see the module docstring)."""

    format = "csc"

    @property
    def T(self) -> csr_matrix:
        """The transpose: a CSR matrix over the same device arrays (no copy)."""
        t = csr_matrix((self.data, self.indices, self.indptr), (self.shape[1], self.shape[0]))
        t._canonical = self._canonical
        return t

    def transpose(self) -> csr_matrix:
        return self.T

    def tocsc(self, copy: bool = False) -> csc_matrix:
        return self.copy() if copy else self

    def tocsr(self, copy: bool = False) -> csr_matrix:
        """The same matrix in CSR form (a device transpose)."""
        return self.T.tocsc().T

    def tocoo(self, copy: bool = False) -> coo_matrix:
        return self.tocsr().tocoo()


class coo_matrix(_SparseArithmetic):
    """A COO matrix on the device: ``data``, ``row``, ``col`` DeviceArrays (0-based, any order,
    duplicates add up in products and conversions).  ``has_canonical_format``: sorted by row, then
    column, without duplicates."""

    format = "coo"

    def __init__(self, arg1: Any, shape: tuple[int, int] | None = None, dtype: Any = None, copy: bool = False):
        canonical = False
        if issparse(arg1):  # converted on the device (its arrays shared unless ``copy``, as cupyx's)
            src = arg1.tocoo()
            if copy and src is arg1:
                src = src.copy()
            shape, canonical = src.shape, src.has_canonical_format
            arg1 = (src.data, (src.row, src.col))
        elif scipy.sparse.issparse(arg1) or isinstance(arg1, np.ndarray):
            host = scipy.sparse.coo_matrix(arg1)
            shape, canonical = host.shape, bool(host.has_canonical_format)
            arg1 = (host.data, (host.row, host.col))
        data, (row, col) = arg1
        if shape is None:
            raise ValueError("shape is required with (data, (row, col))")
        self.shape = (int(shape[0]), int(shape[1]))
        idx = np.dtype(row.dtype) if np.dtype(row.dtype) in (np.int32, np.int64) else np.dtype(np.int32)
        self.data = _dev(data, _value_dtype(dtype if dtype is not None else data.dtype))
        self.row = _dev(row, idx)
        self.col = _dev(col, idx)
        self.has_canonical_format = canonical

    @property
    def dtype(self) -> np.dtype[Any]:
        return self.data.dtype

    @property
    def nnz(self) -> int:
        return self.data.size

    def get(self, stream: Any = None) -> scipy.sparse.coo_matrix:
        """A scipy.sparse copy on the host."""
        return scipy.sparse.coo_matrix((self.data.get(stream), (self.row.get(stream), self.col.get(stream))),
                                       shape=self.shape)

    @property
    def T(self) -> coo_matrix:
        """The transpose (row and column arrays swapped, no copy)."""
        return coo_matrix((self.data, (self.col, self.row)), (self.shape[1], self.shape[0]))

    def _with_data(self, data: rocmath.DeviceArray) -> coo_matrix:
        out = coo_matrix((data, (self.row.copy(), self.col.copy())), self.shape)
        out.has_canonical_format = self.has_canonical_format
        return out

    def sum_duplicates(self) -> None:
        """Sort the entries by row, then column, and sum duplicates, in place: each sum left to
        right in storage order (scipy's for two duplicates)."""
        if self.has_canonical_format:
            return
        c = self._canonical_csr()
        rows = rocmath.empty(c.nnz, c.indices.dtype)
        if c.nnz:
            rocmath.launch(k.csr_to_coo_rows, c.indptr, 0, rows, name="coo_matrix.sum_duplicates",
                           stream=_handle().stream)
        self.data, self.row, self.col = c.data, rows, c.indices
        self.has_canonical_format = True

    def _canonical_csr(self) -> csr_matrix:
        """This matrix in CSR form with sorted columns and duplicates summed (new arrays): the rows
        grouped, sorted and merged by :func:`~._kernels_matrix.group_rows`, then packed."""
        m, nnz, it, s = self.shape[0], self.nnz, self.row.dtype, _handle().stream
        ptr, grouped = rocmath.empty(m + 1, it), rocmath.empty(m + 1, np.int64)
        col, val = rocmath.empty(nnz, it), rocmath.empty(nnz, self.dtype)
        moved = float(3 * self.row.nbytes + 2 * self.data.nbytes + grouped.nbytes)
        rocmath.launch(km.group_rows, self.row, self.col, self.data, ptr, grouped, col, val,
                       name="coo_matrix.tocsr", stream=s, bytes=moved)
        count = int(ptr[m:].get(s)[0])
        if count < nnz:  # duplicates merged: exact-size arrays (a slice would keep the whole allocation)
            packed_col, packed_val = rocmath.empty(count, it), rocmath.empty(count, self.dtype)
            rocmath.launch(km.compact_rows, grouped, col, val, ptr, packed_col, packed_val,
                           name="coo_matrix.tocsr", stream=s, bytes=float(2 * (packed_col.nbytes + packed_val.nbytes)))
            col, val = packed_col, packed_val
        out = csr_matrix((val, col, ptr), self.shape)
        out._canonical = True
        return out

    def tocsr(self, copy: bool = False) -> csr_matrix:
        """The same matrix in CSR form, duplicates summed (see :meth:`sum_duplicates`), on the device."""
        if not self.has_canonical_format:
            return self._canonical_csr()
        ptr = rocmath.empty(self.shape[0] + 1, self.row.dtype)
        rocmath.launch(k.coo_rows_to_ptr, self.row, 0, ptr, name="coo_matrix.tocsr", stream=_handle().stream,
                       bytes=float(self.row.nbytes + ptr.nbytes))
        out = csr_matrix((self.data.copy(), self.col.copy(), ptr), self.shape)
        out._canonical = True
        return out

    def tocsc(self, copy: bool = False) -> csc_matrix:
        """The same matrix in CSC form, duplicates summed, on the device."""
        return self.T.tocsr().T

    def tocoo(self, copy: bool = False) -> coo_matrix:
        return self.copy() if copy else self

    def __matmul__(self, other: Any) -> Any:
        if issparse(other):
            return self._matmul_sparse(other)
        if isinstance(other, rocmath.DeviceArray) and other.ndim == 2:
            return self.tocsr() @ other
        if not isinstance(other, rocmath.DeviceArray) or other.ndim != 1:
            return NotImplemented
        m, n = self.shape
        if other.shape[0] != n or other.dtype != self.dtype:
            raise ValueError(f"dimension or type mismatch: {self.shape} {self.dtype} @ {other.shape} {other.dtype}")
        h = _handle()
        it, ct = IndexType.of(self.row.dtype), Datatype.of(self.dtype)
        mat = create_coo_descr(m, n, self.nnz, self.row, self.col, self.data, it, IndexBase.zero, ct)
        y = rocmath.empty(m, self.dtype)
        dx, dy = create_dnvec_descr(n, other, ct), create_dnvec_descr(m, y, ct)
        one, zero = self.dtype.type(1), self.dtype.type(0)
        with h.use_pointer_mode(0):
            size = spmv(h, Operation.none, one, mat, dx, zero, dy, ct, SpMVAlg.default, SpMVStage.buffer_size)
            tmp = rocmath.empty(max(size, 1), np.uint8)
            spmv(h, Operation.none, one, mat, dx, zero, dy, ct, SpMVAlg.default, SpMVStage.compute, None, tmp)
        return y


def issparse(x: Any) -> bool:
    """Whether ``x`` is a device sparse matrix."""
    return isinstance(x, _CompressedMatrix | coo_matrix)


def aslinearoperator(A: Any) -> Any:
    """A ``scipy.sparse.linalg.LinearOperator`` whose matvecs run on the device.

    ``A`` is a device sparse matrix (or a scipy.sparse matrix, copied to the device as CSR).
    SciPy's iterative solvers (cg, gmres, ...) then call ``matvec`` with host vectors: each one is
    copied to the device, multiplied there and copied back.  ``rmatvec`` uses the transpose.
    """
    from scipy.sparse.linalg import LinearOperator

    dev = A if issparse(A) else csr_matrix(A)
    dt = dev.dtype
    m, n = dev.shape
    local = threading.local()

    def matvec(v: np.ndarray) -> np.ndarray:
        x = np.asarray(v, dtype=dt).reshape(-1)
        if dev.format != "csr" or x.shape[0] != n:
            return (dev @ rocmath.to_device(x)).get()
        # The same device vectors for every matvec of this thread on this device: the product is
        # then replayed, and only the copies in and out remain per call.
        buffers = getattr(local, "buffers", None)
        if buffers is None:
            buffers = local.buffers = {}
        device = rocmath.get_device()
        pair = buffers.get(device)
        if pair is None:
            pair = buffers[device] = (rocmath.empty(n, dt), rocmath.empty(m, dt))
        dx, dy = pair
        dx.set(x)
        dev._csrmv_into(_handle(), dx, dy)
        return dy.get()

    def rmatvec(v: np.ndarray) -> np.ndarray:
        t = dev.T
        w = rocmath.to_device(np.conj(np.asarray(v, dtype=dt).reshape(-1)))
        return np.conj((t @ w).get())

    return LinearOperator(dev.shape, matvec=matvec, rmatvec=rmatvec, dtype=dt)
