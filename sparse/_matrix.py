"""Device-resident sparse matrices after ``cupyx.scipy.sparse``, and a SciPy LinearOperator adapter.

``csr_matrix``, ``csc_matrix`` and ``coo_matrix`` hold their arrays in device memory
(DeviceArrays, 0-based indices) and are built from a scipy.sparse matrix, another device
matrix, or the ``(data, indices, indptr)`` / ``(data, (row, col))`` tuples of scipy.  ``.get()``
copies back to scipy.sparse.  ``A @ x`` with a DeviceArray runs the generic spmv (1-D) or
spmm (2-D) on the matrix's stream; ``.T`` is a view (CSR and CSC of the same arrays);
``tocsr`` / ``tocsc`` / ``tocoo`` convert on the device.  Each thread uses one rocSPARSE
handle per device (created on first use, as CuPy does) on the current stream.
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
from ._descr import create_coo_descr, create_csc_descr, create_csr_descr, create_dnmat_descr, create_dnvec_descr
from ._generic import spmm, spmv
from ._handle import MatDescr, SparseHandle, create_handle, create_mat_descr
from ._level2 import ccsrmv, dcsrmv, scsrmv, zcsrmv
from ._types import Datatype, IndexBase, IndexType, Operation, Order, SpMMAlg, SpMMStage, SpMVAlg, SpMVStage

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
    if isinstance(a, rocmath.DeviceArray):
        return a if a.dtype == np.dtype(dtype) else rocmath.to_device(a.get().astype(dtype))
    return rocmath.to_device(np.ascontiguousarray(a, dtype=dtype))


def _value_dtype(dtype: Any) -> np.dtype[Any]:
    dt = np.dtype(dtype)
    if dt.kind in "biu":
        return np.dtype(np.float64)
    return Precision.of(dt).dtype


class _CompressedMatrix:
    """Shared code of CSR and CSC: ``data``, ``indices`` and ``indptr`` DeviceArrays, 0-based."""

    format = ""

    def __init__(self, arg1: Any, shape: tuple[int, int] | None = None, dtype: Any = None):
        if isinstance(arg1, _CompressedMatrix | coo_matrix):
            arg1 = arg1.get()
        if scipy.sparse.issparse(arg1):
            host = arg1.asformat(self.format)
            host.sum_duplicates()  # canonical form: sorted indices, no duplicates
            shape = host.shape
            arg1 = (host.data, host.indices, host.indptr)
        elif isinstance(arg1, np.ndarray):
            host = scipy.sparse.csr_matrix(arg1).asformat(self.format)
            shape = host.shape
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

    @property
    def dtype(self) -> np.dtype[Any]:
        return self.data.dtype

    @property
    def nnz(self) -> int:
        return self.data.size

    @property
    def ndim(self) -> int:
        return 2

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
        xx = x if x.dtype == dt else _dev(x.get(), dt)
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
            xc = xx if xx.c_contiguous else _dev(xx.get(), dt)
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

    def astype(self, dtype: Any) -> Any:
        """A copy with values of ``dtype``."""
        return type(self)((self.data.get().astype(dtype), self.indices, self.indptr), self.shape)

    def __repr__(self) -> str:
        return (f"<{self.shape[0]}x{self.shape[1]} device sparse matrix of type {self.dtype} with {self.nnz} "
                f"stored elements in {self.format.upper()} format>")


class csr_matrix(_CompressedMatrix):
    """A CSR matrix on the device (see the module docstring)."""

    format = "csr"

    @property
    def T(self) -> csc_matrix:
        """The transpose: a CSC matrix over the same device arrays (no copy)."""
        return csc_matrix((self.data, self.indices, self.indptr), (self.shape[1], self.shape[0]))

    def transpose(self) -> csc_matrix:
        return self.T

    def tocsr(self) -> csr_matrix:
        return self

    def tocsc(self) -> csc_matrix:
        """The same matrix in CSC form (a device transpose, row indices sorted within columns)."""
        m, n = self.shape
        it = self.indices.dtype
        val, ind, ptr = rocmath.empty(self.nnz, self.dtype), rocmath.empty(self.nnz, it), rocmath.empty(n + 1, it)
        rocmath.launch(k.csr_transpose, True, self.data, self.indptr, self.indices, 0, val, ind, ptr,
                       name="csr_matrix.tocsc", stream=_handle().stream)
        return csc_matrix((val, ind, ptr), (m, n))

    def tocoo(self) -> coo_matrix:
        """The same matrix in COO form (row-sorted)."""
        rows = rocmath.empty(self.nnz, self.indices.dtype)
        if self.nnz:
            rocmath.launch(k.csr_to_coo_rows, self.indptr, 0, rows, name="csr_matrix.tocoo", stream=_handle().stream)
        return coo_matrix((self.data.copy(), (rows, self.indices.copy())), self.shape)


class csc_matrix(_CompressedMatrix):
    """A CSC matrix on the device (see the module docstring)."""

    format = "csc"

    @property
    def T(self) -> csr_matrix:
        """The transpose: a CSR matrix over the same device arrays (no copy)."""
        return csr_matrix((self.data, self.indices, self.indptr), (self.shape[1], self.shape[0]))

    def transpose(self) -> csr_matrix:
        return self.T

    def tocsc(self) -> csc_matrix:
        return self

    def tocsr(self) -> csr_matrix:
        """The same matrix in CSR form (a device transpose)."""
        return self.T.tocsc().T

    def tocoo(self) -> coo_matrix:
        return self.tocsr().tocoo()


class coo_matrix:
    """A COO matrix on the device: ``data``, ``row``, ``col`` DeviceArrays (0-based, any order,
    duplicates add up in products)."""

    format = "coo"

    def __init__(self, arg1: Any, shape: tuple[int, int] | None = None, dtype: Any = None):
        if isinstance(arg1, _CompressedMatrix | coo_matrix):
            arg1 = arg1.get()
        if scipy.sparse.issparse(arg1) or isinstance(arg1, np.ndarray):
            host = scipy.sparse.coo_matrix(arg1)
            shape = host.shape
            arg1 = (host.data, (host.row, host.col))
        data, (row, col) = arg1
        if shape is None:
            raise ValueError("shape is required with (data, (row, col))")
        self.shape = (int(shape[0]), int(shape[1]))
        idx = np.dtype(row.dtype) if np.dtype(row.dtype) in (np.int32, np.int64) else np.dtype(np.int32)
        self.data = _dev(data, _value_dtype(dtype if dtype is not None else data.dtype))
        self.row = _dev(row, idx)
        self.col = _dev(col, idx)

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

    def tocsr(self) -> csr_matrix:
        return csr_matrix(self.get())

    def tocsc(self) -> csc_matrix:
        return csc_matrix(self.get())

    def tocoo(self) -> coo_matrix:
        return self

    def __matmul__(self, other: Any) -> Any:
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
