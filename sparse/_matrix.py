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
``x @ A`` multiplies a DeviceArray from the left.  Products and sums run as one generic spgemm on
the device (a sum as ``A I + B``), so a result holds the union of its operands' structures (an
entry that cancels stays, as a stored zero); each value of a sum or a difference is rounded once,
bitwise scipy's.  A scaling (``s * A``, ``A * s``, ``-A``, ``multiply(s)``, ``A / s``) maps the
stored values as scipy's (its format and structure kept, numpy's product).  ``toarray()`` expands
into a dense DeviceArray (sparse_to_dense).

The rest of spmatrix's common methods run on the layer's own kernels (``_kernels_matrix``), one
implementation for the three formats, reading back at most a count or a scalar result:

- elementwise, a matrix of the same format and structure: ``multiply(s)``, ``A / s`` (real values
  divide in float64, as scipy's), ``abs(A)``, ``power(n)``, ``.real``, ``.imag``; the maps that
  are not linear (abs, power) sum duplicates first, as scipy's, but on a copy (scipy sums them in
  the operand, in place);
- ``multiply(B)`` with a sparse matrix: the products at the positions both store, those nonzero
  (scipy's and cupyx's), as a canonical CSR matrix (cupyx's format);
- ``eliminate_zeros()`` (in place), ``count_nonzero()`` (duplicates summed first), ``diagonal(k)``
  (a DeviceArray), ``asformat``;
- ``sum(axis)`` and ``mean(axis)``: a numpy scalar for ``axis=None`` (cupyx returns a 0-d array),
  else a DeviceArray of shape ``(1, n)`` or ``(m, 1)``, the shape of spmatrix's (np.matrix) sums;
  each reduction runs in a fixed order.

``eye``, ``identity`` and ``diags`` build a matrix on the device from its diagonals (only their
values come from the host, or from DeviceArrays; the indices are computed on the device), in CSR
for ``format=None`` (scipy's and cupyx's DIA is not on the device), zeros left out as scipy's DIA
conversions do.  ``random`` draws scipy.sparse.random's matrix on the host, then copies it.
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
from ._kernels_conv import BUCKETED_BYTES, ONE_BUCKET, bucket_shift
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

__all__ = ["aslinearoperator", "coo_matrix", "csc_matrix", "csr_matrix", "diags", "eye", "identity", "issparse",
           "random"]

_FORMATS = ("csr", "csc", "coo")

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
        rocmath.launch(km.conjugated if conj else km.converted, a.reshape(-1, order=order),
                       out.reshape(-1, order=order), name=f"astype {dt}",
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


def _operands(*mats: Any) -> list[csr_matrix]:
    """The operands as CSR matrices of one value type and one index type (the widest of theirs
    under numpy's rules): what one spgemm takes."""
    dtype = _value_dtype(np.result_type(*(m.dtype for m in mats)))
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


def _launch(kern: Any, *args: Any, name: str, nbytes: float = 0.0) -> None:
    """One kernel of the array layer on the handle's (the current) stream."""
    rocmath.launch(kern, *args, name=name, stream=_handle().stream, bytes=nbytes)


def _read_count(a: rocmath.DeviceArray) -> int:
    """The last element of a device vector of offsets (a count: the one thing read back)."""
    return int(a[a.size - 1:].get(_handle().stream)[0])


def _real_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The type of the real (or imaginary) part of ``dtype``'s values."""
    return np.empty(0, dtype).real.dtype


def _splits(total: int) -> rocmath.DeviceArray:
    """Offsets of :data:`~._kernels_matrix.SPLITS` consecutive slices of ``total`` entries: the
    segments of a matrix's values taken as a whole (a COO matrix's, a count's, a sum's)."""
    return rocmath.to_device(np.arange(km.SPLITS + 1, dtype=np.int64) * total // km.SPLITS)


def _kept_positions(ptr: rocmath.DeviceArray, data: rocmath.DeviceArray,
                    kept: rocmath.DeviceArray) -> tuple[int, rocmath.DeviceArray | None]:
    """The nonzero values of the segments ``data[ptr[i]:ptr[i + 1]]``: ``kept`` receives their
    offsets per segment; returns their count and positions (None when every value is nonzero)."""
    none = rocmath.empty(0, np.int64)
    moved = float(ptr.nbytes + data.nbytes + kept.nbytes)
    _launch(km.keep_nonzero, ptr, data, kept, none, False, name="eliminate_zeros", nbytes=moved)
    count = _read_count(kept)
    if count == data.size:
        return count, None
    pos = rocmath.empty(count, np.int64)
    _launch(km.keep_nonzero, ptr, data, kept, pos, True, name="eliminate_zeros", nbytes=moved + pos.nbytes)
    return count, pos


def _gathered(src: rocmath.DeviceArray, pos: rocmath.DeviceArray) -> rocmath.DeviceArray:
    """``src[pos]`` as a new device vector."""
    out = rocmath.empty(pos.size, src.dtype)
    if pos.size:
        _launch(km.gather, src, pos, out, name="eliminate_zeros", nbytes=float(2 * out.nbytes + pos.nbytes))
    return out


def _axis(axis: Any) -> int | None:
    """scipy's axes of a matrix: None, 0 or 1 (-2 and -1 counted from the end)."""
    if axis is None:
        return None
    if not isinstance(axis, int | np.integer) or not -2 <= axis <= 1:
        raise ValueError(f"axis out of range: {axis!r} (None, 0, 1, -2 or -1)")
    return int(axis) % 2


def _real_values(kern: Any, dtype: np.dtype[Any], name: str) -> Any:
    """A map of a matrix's values (``_SparseArithmetic._map``) through ``kern(src, dst)`` into new values of
    the real type of ``dtype`` (abs, imag)."""
    rt = _real_dtype(dtype)

    def values(d: rocmath.DeviceArray) -> rocmath.DeviceArray:
        out = rocmath.empty(d.size, rt)
        if d.size:
            _launch(kern, d, out, name=name, nbytes=float(d.nbytes + out.nbytes))
        return out

    return values


def _scaled_array(a: rocmath.DeviceArray, s: Any) -> rocmath.DeviceArray:
    """``a s`` as a new (contiguous) device array, of ``a``'s type or wider as numpy's would be."""
    dt = _value_dtype(np.result_type(a.dtype, s))
    src = a if a.c_contiguous else a.copy()
    src = src if dt == src.dtype else _convert(src, dt)
    out = rocmath.empty(src.shape, dt)
    if out.size:
        _launch(km.scaled, src.reshape(-1), dt.type(s), out.reshape(-1), name="scale", nbytes=float(2 * out.nbytes))
    return out


class _SparseArithmetic:
    """The operators and methods CSR, CSC and COO share (see the module docstring): the products and
    sums go through CSR, the elementwise maps work on the values of any format."""

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
            return self._scaled(other)
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

    def asformat(self, format: str | None, copy: bool = False) -> Any:
        """This matrix in ``format`` ("csr", "csc" or "coo"; None: as it is), converted on the device."""
        if format is None or format == self.format:
            return self.copy() if copy else self
        if format not in _FORMATS:
            raise NotImplementedError(f"format {format!r}: the device matrices are csr, csc and coo")
        return getattr(self, f"to{format}")()

    # --- values, elementwise --------------------------------------------------------------------
    # A new matrix of this format and structure; the maps that are not linear (abs, power) and a
    # count sum the duplicates first, as scipy's, but on a copy: scipy sums them in place.

    def _deduped(self) -> Any:
        """This matrix without duplicates: itself when in canonical format, else a summed copy."""
        if self.has_canonical_format:  # type: ignore[attr-defined]
            return self
        c = self.copy()
        c.sum_duplicates()
        return c

    def _map(self, values: Any, dedupe: bool = False) -> Any:
        """A matrix of this format and structure whose values are ``values(data)`` (a new device array)."""
        src = self._deduped() if dedupe else self
        data = values(src.data)
        if src is self:
            return self._with_data(data)
        src.data = data  # src is a private copy: no need to copy its indices again
        return src

    def _scaled(self, s: Any, dtype: Any = None) -> Any:
        """``s`` times this matrix, of its format and structure; values of numpy's type for the product
        of an array of ``dtype`` (default: this matrix's) and the scalar ``s``."""
        dt = _value_dtype(np.result_type(self.dtype if dtype is None else dtype, s))
        return self._map(lambda d: _scaled_array(d if d.dtype == dt else _convert(d, dt), s))

    def multiply(self, other: Any) -> Any:
        """The elementwise product with a scalar or a device sparse matrix of the same shape.

        Parameters
        ----------
        other : scalar or sparse matrix
            A scalar scales the values (a matrix of this format and structure, stored zeros
            kept, as scipy's).  A sparse matrix (any format) multiplies entry by entry.

        Returns
        -------
        csr_matrix or this format
            With a sparse ``other``, a CSR matrix (cupyx's) in canonical format holding the
            positions both operands store whose product is nonzero (scipy's and cupyx's), each
            product rounded once; duplicates are summed first.  Values of numpy's result type.
        """
        if _is_scalar(other):
            return self._scaled(other)
        if not issparse(other):
            raise TypeError("multiply takes a scalar or a device sparse matrix")
        if self.shape != other.shape:
            raise ValueError(f"inconsistent shapes: {self.shape} and {other.shape}")
        a, b = (x._deduped() for x in _operands(self, other))
        m, it, dt = a.shape[0], a.indices.dtype, a.dtype
        ptr = rocmath.empty(m + 1, it)
        args = (a.indptr, a.indices, a.data, b.indptr, b.indices, b.data, ptr)
        moved = float(sum(x.nbytes for x in args))
        _launch(km.intersect, *args, rocmath.empty(0, it), rocmath.empty(0, dt), False, name="multiply",
                nbytes=moved)
        nnz = _read_count(ptr)
        ind, val = rocmath.empty(nnz, it), rocmath.empty(nnz, dt)
        if nnz:
            _launch(km.intersect, *args, ind, val, True, name="multiply", nbytes=moved + ind.nbytes + val.nbytes)
        out = csr_matrix((val, ind, ptr), self.shape)
        out._canonical = True
        return out

    def __truediv__(self, other: Any) -> Any:
        """Division by a scalar: the values times ``1 / other`` (a matrix of this format and structure).

        As scipy's (and cupyx's), real values divide in float64 (a float32 matrix gives a float64
        one) and the reciprocal is taken first: ``1 / other`` under Python's or numpy's rules (a
        Python zero raises ZeroDivisionError).
        """
        if not _is_scalar(other):
            return NotImplemented
        inv = 1 / other
        return self._scaled(inv, np.float64 if self.dtype.kind == "f" else self.dtype)

    def __abs__(self) -> Any:
        """The absolute values (of complex ones: the modulus, of the real type), duplicates summed first."""
        return self._map(_real_values(km.absolute, self.dtype, "abs"), dedupe=True)

    @property
    def real(self) -> Any:
        """The real part: a matrix of this format and structure, of the real type (a copy)."""
        rt = _real_dtype(self.dtype)
        return self._map(lambda d: _convert(d, rt))

    @property
    def imag(self) -> Any:
        """The imaginary part: a matrix of this format and structure, of the real type (of a real
        matrix, stored zeros, as scipy's)."""
        return self._map(_real_values(km.imaginary, self.dtype, "imag"))

    def power(self, n: Any, dtype: Any = None) -> Any:
        """The elementwise power ``A ** n`` of the stored values, duplicates summed first (scipy's).

        Parameters
        ----------
        n : scalar
            The exponent, nonzero (a zero power would fill the matrix: NotImplementedError,
            as scipy's).
        dtype : dtype, optional
            The values are first converted to it.

        Returns
        -------
        A matrix of this format and structure, of numpy's type for ``data ** n``, with numpy's
        values (its ``power`` ufunc).
        """
        if not _is_scalar(n):
            raise NotImplementedError("input is not scalar")
        if n == 0:
            raise NotImplementedError("zero power is not supported as it would densify the matrix; "
                                      "use rocmath.full(A.shape, 1, A.dtype) for this case")

        def values(d: rocmath.DeviceArray) -> rocmath.DeviceArray:
            if dtype is not None:
                d = _convert(d, _value_dtype(dtype))
            dt = _value_dtype(np.result_type(d.dtype, n))
            d = d if d.dtype == dt else _convert(d, dt)
            out = rocmath.empty(d.size, dt)
            if d.size:
                _launch(km.powered, d, n, out, name="power", nbytes=float(d.nbytes + out.nbytes))
            return out

        return self._map(values, dedupe=True)

    # --- structure ------------------------------------------------------------------------------

    def count_nonzero(self) -> int:
        """The number of nonzero values, duplicates summed first (``nnz`` counts stored zeros too);
        counted on the device, only the count read back."""
        src = self._deduped()
        if not src.nnz:
            return 0
        kept = rocmath.empty(km.SPLITS + 1, np.int64)
        none = rocmath.empty(0, np.int64)
        _launch(km.keep_nonzero, _splits(src.nnz), src.data, kept, none, False, name="count_nonzero",
                nbytes=float(src.data.nbytes))
        return _read_count(kept)

    def eliminate_zeros(self) -> None:
        """Remove the stored zeros, in place (new device arrays; the other entries keep their order,
        duplicates are not summed, as scipy's).  Only the count of those kept is read back."""
        if not self.nnz:  # type: ignore[attr-defined]
            return
        coo = self.format == "coo"
        ptr = _splits(self.nnz) if coo else self.indptr  # type: ignore[attr-defined]
        kept = rocmath.empty(ptr.size, ptr.dtype)
        _, pos = _kept_positions(ptr, self.data, kept)
        if pos is None:
            return
        self.data = _gathered(self.data, pos)
        if coo:
            self.row, self.col = _gathered(self.row, pos), _gathered(self.col, pos)  # type: ignore[attr-defined]
        else:  # a subset of each row: sorted rows stay sorted, canonical ones canonical
            self.indices, self.indptr = _gathered(self.indices, pos), kept  # type: ignore[attr-defined]
            if self._canonical is False:  # type: ignore[has-type]
                self._canonical = None  # the duplicates removed may have been zeros

    def diagonal(self, k: int = 0) -> rocmath.DeviceArray:
        """The ``k``-th diagonal ``A[i, i + k]`` as a new DeviceArray of the matrix's type (empty when
        it lies outside the matrix, as scipy's); duplicates add up."""
        k = int(k)
        if self.format == "csc":
            return self.T.diagonal(-k)  # type: ignore[attr-defined, no-any-return]  # CSR of the same arrays
        m, n = self.shape
        out = rocmath.empty(max(0, min(m + min(k, 0), n - max(k, 0))), self.dtype)
        if out.size:
            a = self.tocsr()
            _launch(km.csr_diagonal, a.indptr, a.indices, a.data, k, out, name="diagonal",
                    nbytes=float(a.indptr.nbytes + a.indices.nbytes + a.data.nbytes))
        return out

    # --- reductions -----------------------------------------------------------------------------

    def sum(self, axis: int | None = None, dtype: Any = None) -> Any:
        """The sum of the entries, or of each column (``axis=0``) or row (``axis=1``).

        Parameters
        ----------
        axis : {None, 0, 1, -2, -1}
            None sums every entry.
        dtype : dtype, optional
            The result's type (the sums are taken in the matrix's type, then converted: cupyx's).

        Returns
        -------
        numpy scalar or DeviceArray
            ``axis=None``: a numpy scalar read back (cupyx returns a 0-d array).  Otherwise a
            DeviceArray of shape ``(1, n)`` (axis 0) or ``(m, 1)`` (axis 1): the shape of scipy's
            and cupyx's ``spmatrix`` sums (an ``np.matrix`` in scipy).  Each row's sum runs left to
            right in storage order (columns: of the transpose made on the device); the total adds
            fixed slices of the stored values.
        """
        axis = _axis(axis)
        if axis is None:
            # The sums of fixed slices, then theirs in order: bits that do not depend on the threads.
            parts, out = rocmath.empty(km.SPLITS, self.dtype), rocmath.empty(1, self.dtype)
            _launch(km.segment_sums, _splits(self.nnz), self.data, parts, name="sum", nbytes=float(self.data.nbytes))
            _launch(km.segment_sums, rocmath.to_device(np.array([0, km.SPLITS], np.int64)), parts, out, name="sum")
            v = out.get(_handle().stream)[0]
            return v if dtype is None else np.dtype(dtype).type(v)
        rows = (self if axis == 1 else self.T).tocsr()  # type: ignore[attr-defined]
        out = rocmath.empty(rows.shape[0], self.dtype)
        _launch(km.segment_sums, rows.indptr, rows.data, out, name="sum",
                nbytes=float(rows.indptr.nbytes + rows.data.nbytes + out.nbytes))
        res = out.reshape((1, -1) if axis == 0 else (-1, 1))
        return res if dtype is None else _convert(res, np.dtype(dtype))

    def mean(self, axis: int | None = None, dtype: Any = None) -> Any:
        """The mean of the entries, or of each column (``axis=0``) or row (``axis=1``): :meth:`sum`
        times ``1 / N``, with the same results' types and shapes.

        scipy and cupyx scale the values before summing; the sum scaled gives the same up to
        rounding.  An empty axis raises ZeroDivisionError, as theirs.
        """
        axis = _axis(axis)
        m, n = self.shape
        scale = 1.0 / (m * n if axis is None else m if axis == 0 else n)
        s = self.sum(axis)
        if axis is None:
            r = s * scale
            return r if dtype is None else np.dtype(dtype).type(r)
        r = _scaled_array(s, scale)
        return r if dtype is None else _convert(r, np.dtype(dtype))


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
                       BUCKETED_BYTES, name="csr_matrix.tocsc", stream=_handle().stream,
                       bytes=float(2 * (self.data.nbytes + self.indices.nbytes) + self.indptr.nbytes + ptr.nbytes))
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
        entry_bytes = self.row.nbytes + self.col.nbytes + self.data.nbytes
        shift = bucket_shift(m, entry_bytes)
        passes = 1 if shift == ONE_BUCKET else 2
        moved = float(passes * (3 * self.row.nbytes + 2 * self.data.nbytes) + grouped.nbytes)
        rocmath.launch(km.group_rows, self.row, self.col, self.data, ptr, grouped, col, val, shift,
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


# --- constructors ---------------------------------------------------------------------------------


def _result_format(format: str | None) -> str:
    """The format a constructor returns: scipy's and cupyx's default (DIA) is not on the device, CSR is."""
    if format is None:
        return "csr"
    if format not in _FORMATS:
        raise NotImplementedError(f"format {format!r}: the device matrices are csr, csc and coo")
    return format


def _index_type(*sizes: int) -> np.dtype[Any]:
    """scipy's index type: int32 unless a size or an index does not fit it."""
    return np.dtype(np.int32 if max(sizes, default=0) <= np.iinfo(np.int32).max else np.int64)


def _from_diagonals(offsets: list[int], diagonals: list[Any], shape: tuple[int, int], dtype: np.dtype[Any],
                    format: str) -> Any:
    """The matrix of ``shape`` holding diagonal ``diagonals[j]`` at ``offsets[j]`` (distinct), built on
    the device: each diagonal is a host array or a DeviceArray of one value (repeated) or at least
    the diagonal's length (the rest ignored); zero values are left out, as scipy's."""
    m, n = shape
    if format == "csc":  # the transpose's CSR: diagonal -k of the transpose is diagonal k, element by element
        return _from_diagonals([-off for off in offsets], diagonals, (n, m), dtype, "csr").T
    order = np.argsort(offsets, kind="stable")  # increasing offsets: each row's columns increase
    lengths = [max(0, min(m + off, n - off, m, n)) for off in offsets]
    used = [1 if len(d) == 1 else lengths[j] for j, d in enumerate(diagonals)]
    starts = np.concatenate([[0], np.cumsum(used)]).astype(np.int64)
    # The diagonals' values in one device array: the host ones copied at once, the device ones
    # converted into place.
    host = np.zeros(int(starts[-1]), dtype)
    for j, d in enumerate(diagonals):
        if not isinstance(d, rocmath.DeviceArray):
            part = np.asarray(d)[:used[j]]
            host[starts[j]:starts[j + 1]] = part.real if part.dtype.kind == "c" and dtype.kind != "c" else part
    vals = rocmath.to_device(host)
    for j, d in enumerate(diagonals):
        if isinstance(d, rocmath.DeviceArray) and used[j]:
            src = d[:used[j]]
            src = src if src.is_contiguous else src.copy()
            _launch(km.converted, src, vals[int(starts[j]):int(starts[j + 1])], name="diags",
                    nbytes=float(2 * src.nbytes))
    meta = [rocmath.to_device(np.asarray(x, np.int64)[order])
            for x in (offsets, starts[:-1], [0 if u == 1 else 1 for u in used])]
    it = _index_type(m, n, sum(lengths))
    ptr = rocmath.empty(m + 1, it)
    moved = float(ptr.nbytes + vals.nbytes)
    _launch(km.diagonals_csr, *meta, vals, n, ptr, rocmath.empty(0, it), rocmath.empty(0, dtype), False,
            name="diags", nbytes=moved)
    nnz = _read_count(ptr)
    ind, val = rocmath.empty(nnz, it), rocmath.empty(nnz, dtype)
    if nnz:
        _launch(km.diagonals_csr, *meta, vals, n, ptr, ind, val, True, name="diags",
                nbytes=moved + ind.nbytes + val.nbytes)
    out = csr_matrix((val, ind, ptr), (m, n))
    out._canonical = True
    return out.asformat(format)


def diags(diagonals: Any, offsets: Any = 0, shape: tuple[int, int] | None = None, format: str | None = None,
          dtype: Any = None) -> Any:
    """A sparse matrix from diagonals, built on the device (cupyx's and scipy's ``diags``).

    Parameters
    ----------
    diagonals : sequence of array_like or DeviceArray
        The diagonals (one diagonal alone when ``offsets`` is a scalar).  Each one holds one
        value, repeated along its diagonal, or at least the diagonal's length (the rest is
        ignored).  Host values are copied to the device once; DeviceArrays are converted there.
    offsets : int or sequence of int
        Their offsets, distinct: 0 the main diagonal, k > 0 above it, k < 0 below.
    shape : (int, int), optional
        Default: the square matrix just holding the first diagonal.
    format : {None, "csr", "csc", "coo"}
        None gives CSR (scipy's and cupyx's default is DIA, which the device does not have).
    dtype : dtype, optional
        Default: ``np.common_type`` of the diagonals (cupyx's; integers give float64); integer
        types become float64, as everywhere in the array layer.

    Returns
    -------
    csr_matrix, csc_matrix or coo_matrix
        In canonical format, zero values left out (scipy's DIA conversions drop them).  Only the
        structure's nonzero count is read back: the offsets and indices are computed on the device.
    """
    if _is_scalar(offsets):
        # One diagonal, as scipy's: unless diagonals is a sequence of sequences.
        single = isinstance(diagonals, rocmath.DeviceArray) or len(diagonals) == 0 or _is_scalar(diagonals[0])
        if not single:
            raise ValueError("Different number of diagonals and offsets.")
        diagonals = [diagonals]
    diags_ = [d.reshape(1) if isinstance(d, rocmath.DeviceArray) and d.ndim == 0 else
              d if isinstance(d, rocmath.DeviceArray) else np.atleast_1d(np.asarray(d)) for d in diagonals]
    if any(d.ndim != 1 for d in diags_):
        raise ValueError("each diagonal must be one-dimensional")
    offs = [int(off) for off in np.atleast_1d(np.asarray(offsets))]
    if len(diags_) != len(offs):
        raise ValueError("Different number of diagonals and offsets.")
    if len(set(offs)) != len(offs):
        raise ValueError("offset array contains duplicate values")
    if shape is None:
        size = len(diags_[0]) + abs(offs[0])
        shape = (size, size)
    m, n = int(shape[0]), int(shape[1])
    if dtype is None:
        dtype = np.common_type(*(np.empty(0, d.dtype) for d in diags_))
    for j, (off, d) in enumerate(zip(offs, diags_, strict=True)):
        length = min(m + off, n - off, m, n)
        if length < 0:
            raise ValueError(f"Offset {off} (index {j}) out of bounds")
        if len(d) != 1 and len(d) < length:
            raise ValueError(f"Diagonal length (index {j}: {len(d)} at offset {off}) does not agree with "
                             f"matrix size ({m}, {n}).")
    return _from_diagonals(offs, diags_, (m, n), _value_dtype(dtype), _result_format(format))


def eye(m: int, n: int | None = None, k: int = 0, dtype: Any = float, format: str | None = None) -> Any:
    """A sparse matrix with ones on diagonal ``k``, built on the device (scipy's and cupyx's ``eye``).

    Parameters
    ----------
    m, n : int
        The shape (``n`` defaults to ``m``).
    k : int
        The diagonal: 0 the main one, k > 0 above it, k < 0 below (outside the matrix: no entry,
        as cupyx's and numpy's; scipy 1.17 raises).
    dtype : dtype
        The values' type (integer types become float64).
    format : {None, "csr", "csc", "coo"}
        None gives CSR (scipy's and cupyx's default is DIA).

    Returns
    -------
    csr_matrix, csc_matrix or coo_matrix
        In canonical format, int32 indices unless the sizes need int64.
    """
    n = m if n is None else n
    dt = _value_dtype(dtype)
    return _from_diagonals([int(k)], [np.ones(1, dt)], (int(m), int(n)), dt, _result_format(format))


def identity(n: int, dtype: Any = "d", format: str | None = None) -> Any:
    """The ``n`` by ``n`` identity matrix, built on the device (:func:`eye`)."""
    return eye(n, n, 0, dtype, format)


def random(m: int, n: int, density: float = 0.01, format: str = "coo", dtype: Any = None, random_state: Any = None,
           data_rvs: Any = None) -> Any:
    """A random sparse matrix: scipy.sparse.random's, generated on the host, then copied to the device.

    The positions and values are drawn by ``scipy.sparse.random`` with the same arguments (the
    same matrix as scipy's for the same ``random_state``; cupyx draws on the GPU, a different one)
    in COO format, copied to the device and converted there to ``format``.

    Parameters
    ----------
    m, n : int
        The shape.
    density : float
        The fraction of the entries stored, in [0, 1].
    format : {"coo", "csr", "csc", None}
        The result's format (None: COO, scipy's default).
    dtype : dtype, optional
        Default float64 (integer types become float64).
    random_state : int, numpy Generator or RandomState, optional
    data_rvs : callable, optional
        ``data_rvs(k)`` draws the ``k`` values (scipy's).

    Returns
    -------
    coo_matrix, csr_matrix or csc_matrix
    """
    host = scipy.sparse.random(m, n, density=density, format="coo", dtype=dtype, random_state=random_state,
                               data_rvs=data_rvs)
    return coo_matrix(host).asformat(_result_format(format) if format is not None else "coo")


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
