"""Iterative methods: csritilu0 (iterative ILU0), csritsv and the generic spitsv (iterative triangular solves),
in rocSPARSE's stages, check order and statuses.

csritilu0 (``csritilu0_buffer_size``, ``csritilu0_preprocess``, ``{s,d,c,z}csritilu0_compute``,
``{s,d,c,z}csritilu0_history``) computes the ILU0 factors of a sorted CSR matrix with a full diagonal by
fixed-point sweeps (Chow and Patel): entry (i, j) of the factors is
``(a_ij - sum_{k < min(i, j)} l_ik u_kj) / (u_jj if i > j else 1)``, L unit lower in the strictly lower
part and U in the rest, as csrilu0 stores them, so that the sweeps converge to csrilu0's factors.  As in
rocSPARSE, everything the stages keep is in the caller's buffer: the preprocess stage writes the
structure the sweeps walk (the end of each row's strictly lower part, the strictly upper part by
columns), the compute stage the options, the maximum and the number of iterations and the convergence
logs that ``*_history`` reads back.  ``ilu0`` holds the initial guess on entry (rocSPARSE reads it: pass a
copy of A's values).  The algorithms:

- ``default`` / ``async_inplace`` and ``async_split``: in place, the entries in storage order (rocSPARSE's
  asynchronous kernels update them in whatever order the GPU runs them; here the order is fixed);
- ``sync_split`` and ``sync_split_fusion``: every entry of a sweep from the previous sweep's values (the
  fused algorithm runs one sweep per iteration, where rocSPARSE's kernel runs up to 32 block-local ones,
  and guards a zero u_jj as rocSPARSE's: the entry becomes 0).  rocSPARSE's sync_split returns the
  previous sweep's values after an odd number of iterations (its pointer swap is local): here ilu0 always
  holds the last sweep.

The options (:class:`Itilu0Option`, or-ed) are rocSPARSE's: ``compute_nrm_residual`` computes each
iteration's max |A - LU| over the entries of A (of the values the sweep reads, entries whose residual is
not finite skipped), ``compute_nrm_correction`` the max |x_new - x_old|, both divided by max |a_ij|;
``convergence_history`` logs them (``*_history`` returns the corrections in ``data[:niter]``, the
residuals in ``data[niter:2 niter]``); ``stopping_criteria`` stops at the first iteration whose
indicator (the residual for the asynchronous algorithms; the larger of those computed for the
synchronous ones) is <= tol (sync_split_fusion: from the second iteration on), or stagnates (rocSPARSE's
rule: after 4 iterations, a change below 1e-5 (single) or 1e-15 (double) of itself and below 1e-5
(async_inplace) or 10 tol (the others)), and returns ``zero_pivot`` when it is infinite (the synchronous
algorithms: or NaN); ``verbose`` prints nothing here; ``coo_format`` changes only how rocSPARSE's
kernels are parallelized.  The in-place algorithm without ``compute_nrm_residual`` runs nmaxiter sweeps
and no norms, as rocSPARSE's; unlike rocSPARSE (which logs no correction for it) it logs the corrections
when asked.  The compute stage returns the iterations run
(rocSPARSE's ``nmaxiter`` output: the iteration that met the criteria, nmaxiter otherwise) and writes it
to ``nmaxiter`` when that is a host integer array; its ``zero_pivot`` exception carries it as ``.niter``.

csritsv (``csritsv_buffer_size``, ``_analysis``, ``_solve``, ``csritsv_zero_pivot``, ``csritsv_clear``) and
spitsv solve ``op(T) y = alpha x`` for the triangle T (descriptor's fill mode; a ``triangular`` matrix
type: the whole rows) of a sorted CSR matrix by Jacobi iterations from the initial guess in y:
``y += D^-1 (alpha x - op(T) y)``, or with a unit diagonal ``y := alpha x - op(T) y`` (T strictly
triangular).  ``host_tol`` None runs ``host_nmaxiter`` iterations; else the loop stops at the first whose
max norm (of the residual before the update, non-unit; of the correction, unit) is <= tol, the update
applied.  ``host_history`` (None or a host array of at least host_nmaxiter reals) gets each iteration's
norm.  The solve returns the iterations run (written to ``host_nmaxiter`` when it is a host integer
array).  A zero pivot is the info's one (:func:`csritsv_zero_pivot`, shared with csrsv): the analysis
resets it and records the first row whose diagonal entry is missing, a non-unit solve the first missing
or zero one, and then leaves y untouched.  A unit triangular matrix that stores diagonal entries is
``internal_error`` (rocSPARSE's analysis).

Checks rocSPARSE does not make but without which a kernel would run past its operands are
``invalid_size`` naming the operand: a csritilu0 buffer smaller than the layout needs for the sizes,
options and nmaxiter of the call, or prepared for other sizes; a history array shorter than the
iterations it gets; spitsv's vectors shorter than the matrix.  A csritilu0 buffer that no preprocess
stage prepared is ``internal_error``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

import numpy as np

import rocmath
from rocmath.launch import Buffer
from rocmath.precision import C, D, S, Z

from . import _kernels_iterative as ki
from . import _kernels_solve as ks
from ._api import Call, Routine, bind, is_null
from ._descr import SpMatDescr, check_dnvec, check_spmat
from ._generic import SIZE_ONLY, _buffer, _layered, _ptr
from ._generic_ops import _call, _dispatch, _not_implemented, _out
from ._handle import MatDescr, MatInfo, check_descr, check_handle, check_info
from ._solve import _copy, _csrsv_zero_pivot, _set, zero_pivot_slot
from ._types import (
    AnalysisPolicy,
    Datatype,
    DiagType,
    FillMode,
    Format,
    IndexBase,
    MatrixType,
    Operation,
    SolvePolicy,
    SparseInternalError,
    SparseInvalidSizeError,
    SparseNotImplementedError,
    SparseRequiresSortedStorageError,
    SparseZeroPivotError,
    StorageMode,
)
from ._validate import check_csr

__all__ = [
    "CsritsvInfo", "Itilu0Alg", "Itilu0Option", "SpITSVAlg", "SpITSVStage", "ccsritilu0_compute",
    "ccsritilu0_history", "ccsritsv_analysis", "ccsritsv_buffer_size", "ccsritsv_solve", "csritilu0_buffer_size",
    "csritilu0_preprocess", "csritsv_clear", "csritsv_zero_pivot", "dcsritilu0_compute", "dcsritilu0_history",
    "dcsritsv_analysis", "dcsritsv_buffer_size", "dcsritsv_solve", "scsritilu0_compute", "scsritilu0_history",
    "scsritsv_analysis", "scsritsv_buffer_size", "scsritsv_solve", "spitsv", "zcsritilu0_compute",
    "zcsritilu0_history", "zcsritsv_analysis", "zcsritsv_buffer_size", "zcsritsv_solve",
]


class Itilu0Alg(enum.IntEnum):
    """``rocsparse_itilu0_alg``."""

    default = 0
    async_inplace = 1
    async_split = 2
    sync_split = 3
    sync_split_fusion = 4


class Itilu0Option(enum.IntFlag):
    """``rocsparse_itilu0_option`` (or-ed into csritilu0's ``option``)."""

    verbose = 1
    stopping_criteria = 2
    compute_nrm_correction = 4
    compute_nrm_residual = 8
    convergence_history = 16
    coo_format = 32


class SpITSVAlg(enum.IntEnum):
    """``rocsparse_spitsv_alg``."""

    default = 0


class SpITSVStage(enum.IntEnum):
    """``rocsparse_spitsv_stage``."""

    buffer_size = 1
    preprocess = 2
    compute = 3


_OPT_STOP, _OPT_CORR, _OPT_RES, _OPT_HIST = 2, 4, 8, 16
_REAL_ITEMSIZE = {Datatype.f32_r: 4, Datatype.f32_c: 4, Datatype.f64_r: 8, Datatype.f64_c: 8}
_VALUE_ITEMSIZE = {Datatype.f32_r: 4, Datatype.f64_r: 8, Datatype.f32_c: 8, Datatype.f64_c: 16}


def _host_int(c: Call, name: str) -> int:
    """An integer argument passed by value (rocsparse_int): anything else is invalid_value."""
    v = c.values[name]
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise c.invalid_value(name, f"must be an integer, got {v!r}")
    return int(v)


def _host_real(c: Call, name: str) -> float:
    v = c.values[name]
    if isinstance(v, np.ndarray) and v.size >= 1:
        v = v.reshape(-1)[0]
    if isinstance(v, (bool, complex, np.complexfloating)) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise c.invalid_value(name, f"must be a real number, got {v!r}")
    return float(v)


def _inout_count(c: Call, name: str) -> int:
    """A ``rocsparse_int*`` in/out count: an int, or a host integer array whose first element is read (and
    written back by :func:`_write_count`); None is the null pointer."""
    v = c.values[name]
    if v is None:
        raise c.invalid_pointer(name)
    if isinstance(v, np.ndarray) and v.size >= 1 and v.dtype.kind in "iu":
        return int(v.reshape(-1)[0])
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return int(v)
    raise c.invalid_pointer(name, "expected an int or a host integer array")


def _write_count(c: Call, name: str, value: int) -> int:
    v = c.values[name]
    if isinstance(v, np.ndarray) and v.size >= 1:
        v.reshape(-1)[0] = value
    return value


def _real(dtype: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(np.float32) if dtype in (np.dtype(np.float32), np.dtype(np.complex64)) else np.dtype(np.float64)


# --- csritilu0: the buffer ---------------------------------------------------------------------------

#: "Prepared by csritilu0_preprocess" (header word 0).
_MAGIC = 0x17110_0000_0001
_HEADER_WORDS = 16


def _align(nbytes: int) -> int:
    return (nbytes + 63) // 64 * 64


@dataclass(frozen=True)
class _Itilu0Layout:
    """Byte offsets of what csritilu0 keeps in its buffer: the header (int64 words), the structure
    (int64: lptr_end m, uptr m + 1, uind and uperm nnz each, the strictly upper part at most nnz entries),
    the logs (reals, nmaxiter each when asked) and the next sweep's values (synchronous algorithms)."""

    lptr_end: int
    uptr: int
    uind: int
    uperm: int
    structure_end: int

    @staticmethod
    def of(m: int, nnz: int) -> _Itilu0Layout:
        lptr_end = _align(8 * _HEADER_WORDS)
        uptr = lptr_end + _align(8 * m)
        uind = uptr + _align(8 * (m + 1))
        uperm = uind + _align(8 * nnz)
        return _Itilu0Layout(lptr_end, uptr, uind, uperm, uperm + _align(8 * nnz))

    def tail(self, options: int, nmaxiter: int, real_itemsize: int, next_bytes: int) -> tuple[int, int, int, int]:
        """(corrections log, residuals log, next values, total bytes) for a compute stage's options."""
        at = self.structure_end
        hist = options & _OPT_HIST
        n = max(nmaxiter, 0)
        corr = at
        at += _align(real_itemsize * n) if hist and options & _OPT_CORR else 0
        res = at
        at += _align(real_itemsize * n) if hist and options & _OPT_RES else 0
        return corr, res, at, at + _align(next_bytes)


def _jacobi(alg: Itilu0Alg) -> bool:
    return alg in (Itilu0Alg.sync_split, Itilu0Alg.sync_split_fusion)


def _itilu0_head(c: Call) -> tuple[Itilu0Alg, int, int, int, int]:
    """csritilu0_buffer_size's and _preprocess's checks up to the index base and datatype, in rocSPARSE's order:
    alg, options >= 0, nmaxiter >= 0, m, nnz, the arrays, the index base, the datatype."""
    alg = c.enum("alg", Itilu0Alg)
    options = _host_int(c, "option")
    if options < 0:
        raise c.invalid_value("option", f"must be non-negative, got {options}")
    nmaxiter = _host_int(c, "nmaxiter")
    if nmaxiter < 0:
        raise c.invalid_value("nmaxiter", f"must be non-negative, got {nmaxiter}")
    m, nnz = c.size("m"), c.size("nnz")
    c.check_array("csr_row_ptr", m)
    c.check_array("csr_col_ind", nnz)
    c.enum("idx_base", IndexBase)
    c.enum("datatype", Datatype)
    return alg, options, nmaxiter, m, nnz


def _csritilu0_buffer_size(c: Call) -> int:
    alg, options, nmaxiter, m, nnz = _itilu0_head(c)
    if m == 0:
        return 0
    if nnz == 0:
        raise SparseZeroPivotError("a matrix without entries has no diagonal", arg="nnz", index=c.index("nnz"))
    dt = c.enum("datatype", Datatype)
    if dt not in _REAL_ITEMSIZE:
        raise SparseNotImplementedError(f"{dt.name} values are not supported", arg="datatype",
                                        index=c.index("datatype"))
    lay = _Itilu0Layout.of(m, nnz)
    return lay.tail(options, nmaxiter, _REAL_ITEMSIZE[dt], _VALUE_ITEMSIZE[dt] * nnz if _jacobi(alg) else 0)[3]


_ITILU0_HEAD = ("alg", "option", "nmaxiter", "m", "nnz", "csr_row_ptr", "csr_col_ind", "idx_base", "datatype")

csritilu0_buffer_size = bind(Routine("csritilu0_buffer_size", _ITILU0_HEAD, _csritilu0_buffer_size,
                                     "Bytes of the buffer csritilu0_preprocess, _compute and _history use for this "
                                     "alg, option and nmaxiter (returned); a matrix without entries is "
                                     "zero_pivot."), None)


def _structure(c: Call, m: int, nnz: int) -> tuple[Buffer, Buffer, np.dtype[Any]]:
    itype = c.index_dtype("csr_row_ptr", "csr_col_ind")
    return c.array("csr_row_ptr", m + 1, itype), c.array("csr_col_ind", nnz, itype), itype


def _view(c: Call, offset: int, dtype: Any, n: int, name: str = "buffer") -> Buffer:
    return Buffer(c.ptr("buffer") + offset, np.dtype(dtype), (n,), name=name, owner=c["buffer"])


def _buffer_bytes(c: Call) -> int:
    v = c.values["buffer_size"]
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
        raise c.invalid_value("buffer_size", f"must be a non-negative integer, got {v!r}")
    return int(v)


def _too_small(c: Call, have: int, need: int) -> SparseInvalidSizeError:
    return c.invalid_size("buffer_size", f"the buffer has {have} bytes, this call needs {need}")


def _csritilu0_preprocess(c: Call) -> None:
    alg, _, _, m, nnz = _itilu0_head(c)
    size = _buffer_bytes(c)
    c.check_array("buffer", size)
    if m == 0:
        return
    if nnz == 0:
        raise SparseZeroPivotError("a matrix without entries has no diagonal", arg="nnz", index=c.index("nnz"))
    lay = _Itilu0Layout.of(m, nnz)
    if size < lay.structure_end:
        raise _too_small(c, size, lay.structure_end)
    base = int(c.enum("idx_base", IndexBase))
    row_ptr, col_ind, itype = _structure(c, m, nnz)
    check_csr(c, row_ptr, col_ind, base, nnz, m)  # checking mode: the columns pick u's columns
    counts = np.zeros(2, np.int64)
    c.launch(ki.itilu0_structure, row_ptr, col_ind, base, _view(c, lay.lptr_end, np.int64, m),
             _view(c, lay.uptr, np.int64, m + 1), _view(c, lay.uind, np.int64, nnz),
             _view(c, lay.uperm, np.int64, nnz), counts,
             bytes=float((nnz + m) * itype.itemsize * 3 + 8 * (2 * nnz + 2 * m))).wait()
    if counts[0] != m:
        raise SparseZeroPivotError(f"csritilu0_preprocess found {m - int(counts[0])} of {m} diagonal entries "
                                   "missing", arg="csr_col_ind", index=c.index("csr_col_ind"))
    header = np.zeros(_HEADER_WORDS, np.int64)
    header[[ki.H_MAGIC, ki.H_ALG, ki.H_M, ki.H_NNZ, ki.H_UNNZ]] = _MAGIC, int(alg), m, nnz, counts[1]
    c.launch(_copy, header, _view(c, 0, np.int64, _HEADER_WORDS), bytes=8.0 * _HEADER_WORDS)


csritilu0_preprocess = bind(Routine("csritilu0_preprocess", (*_ITILU0_HEAD, "buffer_size", "buffer"),
                                    _csritilu0_preprocess,
                                    "Analyse the structure of a sorted CSR matrix for csritilu0_compute into buffer "
                                    "(blocking); a missing diagonal entry is zero_pivot."), None)


def _header(c: Call) -> np.ndarray:
    """The buffer's header on the host (blocking); internal_error unless csritilu0_preprocess prepared it."""
    host = np.zeros(_HEADER_WORDS, np.int64)
    if _buffer_bytes(c) < 8 * _HEADER_WORDS:
        raise SparseInternalError("the buffer was not prepared by csritilu0_preprocess", arg="buffer",
                                  index=c.index("buffer"))
    c.launch(_copy, _view(c, 0, np.int64, _HEADER_WORDS), host, bytes=8.0 * _HEADER_WORDS).wait()
    if host[ki.H_MAGIC] != _MAGIC:
        raise SparseInternalError("the buffer was not prepared by csritilu0_preprocess", arg="buffer",
                                  index=c.index("buffer"))
    return host


#: The stopping rules of each algorithm (rocSPARSE's async_inplace, csritilu0x async, sync and sync_fusion).
_RULES = {Itilu0Alg.default: ki.RULE_INPLACE, Itilu0Alg.async_inplace: ki.RULE_INPLACE,
          Itilu0Alg.async_split: ki.RULE_ASYNC_SPLIT, Itilu0Alg.sync_split: ki.RULE_SYNC,
          Itilu0Alg.sync_split_fusion: ki.RULE_FUSION}


def _csritilu0_compute(c: Call) -> int:
    alg = c.enum("alg", Itilu0Alg)
    options = _host_int(c, "option")
    if options < 0:
        raise c.invalid_value("option", f"must be non-negative, got {options}")
    nmaxiter = _inout_count(c, "nmaxiter")
    tol = _host_real(c, "tol")
    if tol < 0:
        raise c.invalid_value("tol", f"must be non-negative, got {tol}")
    m, nnz = c.size("m"), c.size("nnz")
    for name, length in (("csr_row_ptr", m), ("csr_col_ind", nnz), ("csr_val", nnz), ("ilu0", nnz)):
        c.check_array(name, length)
    base = int(c.enum("idx_base", IndexBase))
    size = _buffer_bytes(c)
    c.check_array("buffer", size)
    if m == 0:
        return _write_count(c, "nmaxiter", 0)
    if nnz == 0:
        _write_count(c, "nmaxiter", 0)
        err = SparseZeroPivotError("a matrix without entries has no diagonal", arg="nnz", index=c.index("nnz"))
        err.niter = 0  # type: ignore[attr-defined]
        raise err
    header = _header(c)
    if (int(header[ki.H_M]), int(header[ki.H_NNZ])) != (m, nnz):
        raise c.invalid_size("buffer", f"prepared for m = {header[ki.H_M]}, nnz = {header[ki.H_NNZ]}, called with "
                                       f"m = {m}, nnz = {nnz}")
    lay = _Itilu0Layout.of(m, nnz)
    jacobi = _jacobi(alg)
    real = _real(c.dtype)
    corr_at, res_at, next_at, need = lay.tail(options, nmaxiter, real.itemsize, c.dtype.itemsize * nnz if jacobi else 0)
    if size < need:
        raise _too_small(c, size, need)
    res, corr, stop = bool(options & _OPT_RES), bool(options & _OPT_CORR), bool(options & _OPT_STOP)
    record = bool(options & _OPT_HIST)
    light = alg in (Itilu0Alg.default, Itilu0Alg.async_inplace) and not res
    norms = not light and (res or corr or stop)
    n = max(nmaxiter, 0)
    row_ptr, col_ind, _ = _structure(c, m, nnz)
    check_csr(c, row_ptr, col_ind, base, nnz, m)
    out = np.zeros(2, np.int64)
    tol_increment = 1.0e-5 if real.itemsize == 4 else 1.0e-15
    c.launch(ki.itilu0_iterate, c.array("csr_val", nnz), row_ptr, col_ind, base,
             _view(c, lay.lptr_end, np.int64, m), _view(c, lay.uptr, np.int64, m + 1),
             _view(c, lay.uind, np.int64, nnz), _view(c, lay.uperm, np.int64, nnz), c.array("ilu0", nnz),
             _view(c, next_at, c.dtype, nnz if jacobi else 0), jacobi, alg is Itilu0Alg.sync_split_fusion, norms, res,
             corr, stop, _RULES[alg], nmaxiter, tol, tol_increment, record,
             _view(c, corr_at, real, n if record and corr else 0), _view(c, res_at, real, n if record and res else 0),
             _view(c, 0, np.int64, _HEADER_WORDS), options, out,
             flops=float(n * nnz * 8) * (4.0 if c.dtype.kind == "c" else 1.0),
             bytes=float(n * nnz * (3 * c.dtype.itemsize + 4 * 8))).wait()
    iters = int(out[0])
    _write_count(c, "nmaxiter", iters)
    if out[1]:
        err = SparseZeroPivotError(f"the convergence indicator became infinite at iteration {iters}", arg="ilu0",
                                   index=c.index("ilu0"))
        err.niter = iters  # type: ignore[attr-defined]
        raise err
    return iters


CSRITILU0_COMPUTE = Routine("csritilu0_compute", ("alg", "option", "nmaxiter", "tol", "m", "nnz", "csr_row_ptr",
                                                  "csr_col_ind", "csr_val", "ilu0", "idx_base", "buffer_size",
                                                  "buffer"), _csritilu0_compute,
                            "Iterate the ILU0 factors of the preprocessed matrix in ilu0 (the initial guess on "
                            "entry, L unit lower and U after); returns the iterations run (also written to "
                            "nmaxiter when it is a host integer array).")

scsritilu0_compute = bind(CSRITILU0_COMPUTE, S)
dcsritilu0_compute = bind(CSRITILU0_COMPUTE, D)
ccsritilu0_compute = bind(CSRITILU0_COMPUTE, C)
zcsritilu0_compute = bind(CSRITILU0_COMPUTE, Z)


def _csritilu0_history(c: Call) -> int:
    c.enum("alg", Itilu0Alg)
    niter_out = c.values["niter"]
    if niter_out is not None and not (isinstance(niter_out, np.ndarray) and niter_out.size >= 1):
        raise c.invalid_pointer("niter", "expected None or a host integer array (the count is also returned)")
    data = c.pointer("data")
    if not isinstance(data, np.ndarray) or data.ndim != 1:
        raise c.invalid_pointer("data", "expected a one-dimensional host array")
    size = _buffer_bytes(c)
    c.check_array("buffer", size)
    if size == 0:
        return _write_count(c, "niter", 0)
    header = _header(c)
    options, niter = int(header[ki.H_OPTIONS]), int(header[ki.H_ITER])
    if not options & _OPT_HIST:
        raise SparseInternalError("convergence history has not been activated", arg="buffer", index=c.index("buffer"))
    m, nnz, nmaxiter = int(header[ki.H_M]), int(header[ki.H_NNZ]), int(header[ki.H_NMAXITER])
    real = _real(c.dtype)
    corr_at, res_at, _, _ = _Itilu0Layout.of(m, nnz).tail(options, nmaxiter, real.itemsize, 0)
    n = max(niter, 0)
    wants = (2 * n) if options & _OPT_RES else (n if options & _OPT_CORR else 0)
    if data.size < wants:
        raise c.invalid_size("data", f"{data.size} entries, the history has {wants}")
    for flag, at, lo in ((_OPT_CORR, corr_at, 0), (_OPT_RES, res_at, n)):
        if options & flag and n:
            c.launch(_copy, _view(c, at, real, n), data[lo:lo + n], bytes=float(real.itemsize * n)).wait()
    return _write_count(c, "niter", niter)


CSRITILU0_HISTORY = Routine("csritilu0_history", ("alg", "niter", "data", "buffer_size", "buffer"),
                            _csritilu0_history,
                            "The iterations of the last csritilu0_compute on buffer (returned; also written to "
                            "niter when it is a host integer array) and its logs into the host array data: the "
                            "corrections in data[:niter], the residuals in data[niter:2 niter].")

scsritilu0_history = bind(CSRITILU0_HISTORY, S)
dcsritilu0_history = bind(CSRITILU0_HISTORY, D)
ccsritilu0_history = bind(CSRITILU0_HISTORY, C)
zcsritilu0_history = bind(CSRITILU0_HISTORY, Z)


# --- csritsv ---------------------------------------------------------------------------------------


@dataclass
class CsritsvInfo:
    """What csritsv_analysis keeps in a ``mat_info``: for a general matrix (``submatrix``) the end of each
    row's part before the triangle's split (index base included, the row pointer's type), else None (a
    triangular matrix's rows are whole)."""

    m: int
    nnz: int
    submatrix: bool
    ptr_end: rocmath.DeviceArray | None = None


def _itsv_descr(c: Call, descr: MatDescr, name: str) -> MatDescr:
    """rocSPARSE's descriptor checks of csritsv: general or triangular (not_implemented), sorted."""
    if descr.type not in (MatrixType.general, MatrixType.triangular):
        raise SparseNotImplementedError(f"{c.fname} supports general and triangular matrices, got "
                                        f"{descr.type.name}", arg=name, index=c.index(name))
    if descr.storage_mode is not StorageMode.sorted:
        raise SparseRequiresSortedStorageError(f"{c.fname} requires sorted storage", arg=name, index=c.index(name))
    return descr


def _itsv_buffer_bytes(dtype: np.dtype[Any], m: int, nnz: int, descr: MatDescr) -> int:
    """rocSPARSE's csritsv buffer: y_p (and the inverted diagonal, non-unit) and four scalars."""
    if m == 0 or nnz == 0:
        return 0
    vectors = 2 if descr.diag_type is DiagType.non_unit else 1
    return dtype.itemsize * (m * vectors + 4)


def _csritsv_buffer_size(c: Call) -> int:
    descr = check_descr(c["descr"], "descr", c.index("descr"))
    check_info(c["info"], "info", c.index("info"))
    c.enum("trans", Operation)
    _itsv_descr(c, descr, "descr")
    m, nnz = c.size("m"), c.size("nnz")
    c.check_array("csr_row_ptr", m)
    c.check_array("csr_val", nnz)
    c.check_array("csr_col_ind", nnz)
    return _itsv_buffer_bytes(c.dtype, m, nnz, descr)


def itsv_analyse(c: Call, m: int, nnz: int, descr: MatDescr, row_ptr: Buffer, col_ind: Buffer, info: MatInfo,
                 reuse: bool, ncols: int) -> None:
    """csritsv's analysis (rocsparse_csritsv_analysis_template): unless ``reuse`` finds one, a new analysis
    replaces the info's, resets its zero pivot and records the first missing diagonal (blocking)."""
    if m == 0 or (reuse and isinstance(info.csritsv, CsritsvInfo)):
        return
    info.csritsv = None
    base = int(descr.base)
    pivot = zero_pivot_slot(info)
    unit = descr.diag_type is DiagType.unit
    if nnz == 0 and not unit:
        c.launch(_set, pivot, base, bytes=8.0)
        info.csritsv = CsritsvInfo(m, nnz, descr.type is MatrixType.general)
        return
    submatrix = descr.type is MatrixType.general
    lower = descr.fill_mode is FillMode.lower
    ptr_end = rocmath.empty(m, row_ptr.dtype) if submatrix else None
    check_csr(c, row_ptr, col_ind, base, nnz, ncols)
    check = 0 if (unit and submatrix) else (2 if unit else 1)
    if unit and not submatrix and nnz == 0:
        check = 0
    count = np.zeros(1, np.int64)
    c.launch(ki.itsv_analyse, row_ptr, col_ind, base, submatrix, lower == unit, check, lower,
             ptr_end if ptr_end is not None else np.zeros(0, row_ptr.dtype), pivot, count,
             bytes=float((m + 1 + nnz) * row_ptr.dtype.itemsize)).wait()
    info.csritsv = CsritsvInfo(m, nnz, submatrix, ptr_end)
    if check == 2 and count[0] > 0:
        raise SparseInternalError(f"the matrix is specified as unit triangular but contains {int(count[0])} diagonal "
                                  "element(s)", arg="descr", index=None)


def _csritsv_analysis(c: Call) -> None:
    descr = check_descr(c["descr"], "descr", c.index("descr"))
    info = check_info(c["info"], "info", c.index("info"))
    c.enum("trans", Operation)
    policy = c.enum("analysis", AnalysisPolicy)
    c.enum("solve", SolvePolicy)
    _itsv_descr(c, descr, "descr")
    m, nnz = c.size("m"), c.size("nnz")
    c.check_array("csr_row_ptr", m)
    c.check_array("csr_val", nnz)
    c.check_array("csr_col_ind", nnz)
    if m > 0 and nnz > 0 and is_null(c["temp_buffer"]):
        raise c.invalid_pointer("temp_buffer")
    row_ptr, col_ind, _ = _structure(c, m, nnz)
    itsv_analyse(c, m, nnz, descr, row_ptr, col_ind, info, policy is AnalysisPolicy.reuse, m)


def itsv_solve(c: Call, nmaxiter: int, tol: float | None, history: np.ndarray | None, op: Operation, m: int,
               nnz: int, alpha: Any, descr: MatDescr, val: Buffer, row_ptr: Buffer, col_ind: Buffer, info: MatInfo,
               x: Buffer, y: Buffer, temp: Buffer) -> int:
    """csritsv's solve (rocsparse_csritsv_solve_template) on checked operands; returns the iterations run
    (``nmaxiter`` when the loop did not stop early, or when a zero pivot stopped the solve)."""
    if m == 0:
        return nmaxiter
    pivot = zero_pivot_slot(info)
    unit = descr.diag_type is DiagType.unit
    base = int(descr.base)
    dtype = c.dtype
    if unit:
        c.launch(_set, pivot, ks.NO_PIVOT, bytes=8.0)
    if nnz == 0:
        if unit:
            c.launch(_scaled_copy, alpha, x, y, bytes=float(2 * m * dtype.itemsize))
        else:
            c.launch(_set, pivot, base, bytes=8.0)
        return nmaxiter
    st = info.csritsv
    assert isinstance(st, CsritsvInfo)
    isz = row_ptr.dtype.itemsize
    starts = Buffer(row_ptr.ptr, row_ptr.dtype, (m,), name=row_ptr.name, owner=row_ptr.owner)
    ends = Buffer(row_ptr.ptr + isz, row_ptr.dtype, (m,), name=row_ptr.name, owner=row_ptr.owner)
    lower = descr.fill_mode is FillMode.lower
    lo, hi = starts, ends
    if st.submatrix and st.ptr_end is not None:
        lo, hi = (starts, st.ptr_end) if lower else (st.ptr_end, ends)
    check_csr(c, row_ptr, col_ind, base, nnz, m)
    rec = history if history is not None else np.zeros(0, _real(dtype))
    if history is not None and history.size < max(nmaxiter, 0):
        raise c.invalid_size("host_history", f"{history.size} entries, host_nmaxiter is {nmaxiter}")
    yp = Buffer(temp.ptr, dtype, (m,), name="temp_buffer", owner=temp.owner)
    invdiag = Buffer(temp.ptr + m * dtype.itemsize if not unit else 0, dtype, (0 if unit else m,), name="temp_buffer",
                     owner=temp.owner)
    out = np.zeros(2, np.int64)
    opcode = {Operation.none: 0, Operation.transpose: 1, Operation.conjugate_transpose: 2}[op]
    n = max(nmaxiter, 0)
    c.launch(ki.itsv_iterate, unit, opcode, alpha, val, lo, hi, col_ind, base, lower, invdiag, pivot, x, y, yp,
             nmaxiter, tol is not None, float(tol) if tol is not None else 0.0, history is not None, rec, out,
             flops=float(2 * n * nnz) * (4.0 if dtype.kind == "c" else 1.0),
             bytes=float(n * (nnz * (dtype.itemsize + isz) + 4 * m * dtype.itemsize))).wait()
    return nmaxiter if out[1] else int(out[0])


def _scaled_copy(alpha: np.ndarray, x: np.ndarray, y: np.ndarray) -> None:
    y[...] = alpha[0] * x


def _history_arg(c: Call) -> np.ndarray | None:
    h = c.values["host_history"]
    if h is None:
        return None
    if not isinstance(h, np.ndarray) or h.ndim != 1 or h.dtype.kind != "f":
        raise c.invalid_pointer("host_history", "expected None or a one-dimensional host array of reals")
    return h


def _tol_arg(c: Call) -> float | None:
    return None if c.values["host_tol"] is None else _host_real(c, "host_tol")


def _csritsv_solve(c: Call) -> int:
    descr = check_descr(c["descr"], "descr", c.index("descr"))
    info = check_info(c["info"], "info", c.index("info"))
    op = c.enum("trans", Operation)
    c.enum("policy", SolvePolicy)
    _itsv_descr(c, descr, "descr")
    m, nnz = c.size("m"), c.size("nnz")
    c.check_array("csr_val", nnz)
    c.check_array("csr_row_ptr", m)
    c.check_array("csr_col_ind", nnz)
    if m > 0 and nnz > 0 and is_null(c["temp_buffer"]):
        raise c.invalid_pointer("temp_buffer")
    nmaxiter = _inout_count(c, "host_nmaxiter")
    c.pointer("alpha")
    c.check_array("x", m)
    c.check_array("y", m)
    if m > 0 and not isinstance(info.csritsv, CsritsvInfo):
        raise c.invalid_pointer("info", "csritsv_analysis was not run on this info")
    tol, history = _tol_arg(c), _history_arg(c)
    row_ptr, col_ind, _ = _structure(c, m, nnz)
    size = _itsv_buffer_bytes(c.dtype, m, nnz, descr)
    temp = Buffer(c.ptr("temp_buffer") if size else 0, np.dtype(np.uint8), (size,), name="temp_buffer",
                  owner=c["temp_buffer"])
    iters = itsv_solve(c, nmaxiter, tol, history, op, m, nnz, c.scalar("alpha"), descr, c.array("csr_val", nnz),
                       row_ptr, col_ind, info, c.array("x", m), c.array("y", m), temp)
    return _write_count(c, "host_nmaxiter", iters)


_ITSV = ("trans", "m", "nnz", "descr", "csr_val", "csr_row_ptr", "csr_col_ind", "info")
CSRITSV_BUFFER_SIZE = Routine("csritsv_buffer_size", _ITSV, _csritsv_buffer_size,
                              "Bytes of temp_buffer csritsv_analysis and csritsv_solve need (returned).")
CSRITSV_ANALYSIS = Routine("csritsv_analysis", (*_ITSV, "analysis", "solve", "temp_buffer"), _csritsv_analysis,
                           "Analyse the triangle (descr's fill mode) of a sorted CSR matrix for csritsv_solve "
                           "(blocking); records the first missing diagonal as the info's zero pivot.")
CSRITSV_SOLVE = Routine("csritsv_solve", ("host_nmaxiter", "host_tol", "host_history", "trans", "m", "nnz", "alpha",
                                          "descr", "csr_val", "csr_row_ptr", "csr_col_ind", "info", "x", "y",
                                          "policy", "temp_buffer"), _csritsv_solve,
                        "Solve op(T) y = alpha x by Jacobi iterations from the initial guess in y (blocking); "
                        "returns the iterations run (also written to host_nmaxiter when it is a host integer array).")

scsritsv_buffer_size = bind(CSRITSV_BUFFER_SIZE, S)
dcsritsv_buffer_size = bind(CSRITSV_BUFFER_SIZE, D)
ccsritsv_buffer_size = bind(CSRITSV_BUFFER_SIZE, C)
zcsritsv_buffer_size = bind(CSRITSV_BUFFER_SIZE, Z)
scsritsv_analysis = bind(CSRITSV_ANALYSIS, S)
dcsritsv_analysis = bind(CSRITSV_ANALYSIS, D)
ccsritsv_analysis = bind(CSRITSV_ANALYSIS, C)
zcsritsv_analysis = bind(CSRITSV_ANALYSIS, Z)
scsritsv_solve = bind(CSRITSV_SOLVE, S)
dcsritsv_solve = bind(CSRITSV_SOLVE, D)
ccsritsv_solve = bind(CSRITSV_SOLVE, C)
zcsritsv_solve = bind(CSRITSV_SOLVE, Z)


# rocsparse_csritsv.cpp answers as csrsv_zero_pivot: the info's zero pivot (-1 when there is none or no analysis
# made it).
csritsv_zero_pivot = bind(Routine("csritsv_zero_pivot", ("descr", "info", "position"), _csrsv_zero_pivot,
                                  "The info's zero pivot's row (index base included): -1 when there is none (host "
                                  "pointer mode returns it, device mode writes it to position), else "
                                  "SparseZeroPivotError with .position."), None)


def _csritsv_clear(c: Call) -> None:
    check_descr(c["descr"], "descr", c.index("descr"))
    check_info(c["info"], "info", c.index("info")).csritsv = None


csritsv_clear = bind(Routine("csritsv_clear", ("descr", "info"), _csritsv_clear,
                             "Free the csritsv analysis kept in info (the zero pivot stays)."), None)


# --- spitsv ------------------------------------------------------------------------------------------

_SPITSV = ("handle", "host_nmaxiter", "host_tol", "host_history", "trans", "alpha", "mat", "x", "y", "compute_type",
           "alg", "stage", "buffer_size", "temp_buffer")


@_layered
def spitsv(handle: Any, host_nmaxiter: Any, host_tol: Any, host_history: Any, trans: Any, alpha: Any,
           mat: SpMatDescr, x: Any, y: Any, compute_type: Any, alg: Any, stage: Any, buffer_size: Any = SIZE_ONLY,
           temp_buffer: Any = None) -> int | None:
    """``rocsparse_spitsv``: csritsv's iterative solve of ``op(T) y = alpha x`` on a CSR descriptor.

    The triangle, diagonal and matrix type come from the matrix's attributes (``spmat_set_attribute``).
    Stages: ``buffer_size`` returns the bytes of temp_buffer (also written to ``buffer_size`` when it is a
    host integer array; None is rocSPARSE's null pointer: invalid_pointer), ``preprocess`` analyses the
    matrix into its info (always, rocSPARSE's force policy), ``compute`` iterates from the initial guess in y
    and returns the iterations run (see :mod:`rocmath.sparse._iterative`).  Other formats, value types and
    index types without rocSPARSE code are not_implemented.
    """
    c = _call("spitsv", _SPITSV, (handle, host_nmaxiter, host_tol, host_history, trans, alpha, mat, x, y,
                                  compute_type, alg, stage, buffer_size, temp_buffer))
    check_handle(handle)
    A = check_spmat(mat, "mat", c.index("mat"))
    X = check_dnvec(x, "x", c.index("x"))
    Y = check_dnvec(y, "y", c.index("y"), writable=True)
    c.pointer("alpha")
    nmax_arg = c.values["host_nmaxiter"]
    if nmax_arg is None:
        raise c.invalid_pointer("host_nmaxiter")
    op = c.enum("trans", Operation)
    ct = c.enum("compute_type", Datatype)
    c.enum("alg", SpITSVAlg)
    stg = c.enum("stage", SpITSVStage)
    if stg is SpITSVStage.buffer_size and is_null(buffer_size):
        raise c.invalid_pointer("buffer_size")
    if any(t is not ct for t in (A.data_type, X.data_type, Y.data_type)):
        raise _not_implemented(c, "compute_type", f"{ct.name} with {A.data_type.name} A, {X.data_type.name} x "
                                                  f"and {Y.data_type.name} y")
    _dispatch(c, "compute_type", ct, (A.row_type, A.col_type))
    if A.format is not Format.csr:
        raise _not_implemented(c, "mat", f"spitsv supports CSR matrices, got {A.format.name}")
    m, nnz, dtype = A.rows, A.nnz, c.dtype
    if A.cols != m:
        raise c.invalid_size("mat", f"a triangular matrix must be square, got {m} x {A.cols}")
    for name, v in (("x", X), ("y", Y)):
        if v.size < m:
            raise c.invalid_size(name, f"{name} has {v.size} entries, the matrix {m} rows")
    size = _itsv_buffer_bytes(dtype, m, nnz, A.descr)
    if stg is SpITSVStage.buffer_size:
        return _out(buffer_size, size)
    if m > 0 and nnz > 0 and is_null(temp_buffer):
        raise c.invalid_pointer("temp_buffer")
    row_ptr = _buffer(A.row_data, A.row_type.dtype, m + 1, "csr_row_ptr")
    col_ind = _buffer(A.col_data, A.col_type.dtype, nnz, "csr_col_ind")
    if stg is SpITSVStage.preprocess:
        if A.descr.type not in (MatrixType.general, MatrixType.triangular):
            raise _not_implemented(c, "mat", f"{A.descr.type.name} matrices are not supported")
        itsv_analyse(c, m, nnz, A.descr, row_ptr, col_ind, A.info, False, A.cols)
        return None
    nmaxiter = _inout_count(c, "host_nmaxiter")
    if m > 0 and not isinstance(A.info.csritsv, CsritsvInfo):
        raise c.invalid_pointer("mat", "the preprocess stage was not run on this matrix")
    temp = Buffer(_ptr(temp_buffer) if size else 0, np.dtype(np.uint8), (size,), name="temp_buffer",
                  owner=temp_buffer)
    iters = itsv_solve(c, nmaxiter, _tol_arg(c), _history_arg(c), op, m, nnz, c.scalar("alpha"), A.descr,
                       _buffer(A.val_data, dtype, nnz, "val"), row_ptr, col_ind, A.info,
                       _buffer(X.values, dtype, m, "x"), _buffer(Y.values, dtype, m, "y"), temp)
    if isinstance(nmax_arg, np.ndarray):
        nmax_arg.reshape(-1)[0] = iters
    return iters

