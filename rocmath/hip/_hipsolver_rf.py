"""hipSOLVER's refactorization API -- the cuSOLVER-RF-like ``hipsolverRf*`` names of hipsolver-refactor.h --
as hipSOLVER's AMD backend has it (library/src/amd_detail/hipsolver_refactor.cpp), over rocmath.solver's
``dcsrrf_*`` routines and its refactorization info object.

A ``hipsolverRfHandle_t`` (:class:`hipsolverRfHandle_t`, its target an :class:`RfHandle`) owns a rocBLAS handle
(on the null stream: the API has no SetStream), a ``rocsolver_rfinfo`` made for it (lu mode), the settings the
getters report (their defaults: fast mode off, CSR, L's unit diagonal stored, no numeric boost, factorization
ALG0, triangular solve ALG1, effective zero and boost value 0.0), the sizes of the last setup (n, nnzA, nnzL,
nnzU and nnzLU = nnzL - n + nnzU), one device buffer holding copies of A (row offsets, columns, values), of L
and U, the bundle T = (L - I) + U (``LU``) and the permutations P and Q, and a host buffer for the extracted
factors.  Everything is double precision, zero-based CSR with int32 indices; P and Q are rocSOLVER's ``pivP`` /
``pivQ`` (row ``i`` of the factored matrix is row ``P[i]`` of A, column ``j`` is column ``Q[j]``).

- ``hipsolverRfCreate()`` -> ``(status, handle)``; ``hipsolverRfDestroy(handle)`` frees all of it (a NULL handle
  is INVALID_VALUE there, NOT_INITIALIZED everywhere else).
- ``hipsolverRfSetupHost`` / ``hipsolverRfSetupDevice(n, nnzA, A..., nnzL, L..., nnzU, U..., P, Q, handle)``:
  NULL arrays are INVALID_VALUE (A's, then L's, U's, P/Q), then a negative size; the device buffer is made anew
  only when a size differs from the last setup's (the host buffer is dropped then); A, P and Q are copied
  (``hipMemcpy``); L and U are bundled into T by ``csrrf_sumlu``: the host variant copies L and U into the
  handle first, the device one bundles the caller's arrays directly (its L and U copies stay unwritten until a
  split extraction).  On a fresh handle a setup with every size 0 allocates nothing and its first copy has no
  destination (hipSOLVER's pointers are unset there): INTERNAL_ERROR, and what follows it too.
- ``hipsolverRfAnalyze``: ``csrrf_analysis`` of T with nrhs 1 (A's values stand in for the unread B, ldb n);
  ``hipsolverRfRefactor``: ``csrrf_refactlu`` of the stored A into T; ``hipsolverRfSolve(handle, P, Q, nrhs,
  Temp, ldt, XF, ldxf)``: ``csrrf_solve`` with the handle's own P and Q on the device matrix ``XF``: the given
  ``P``, ``Q``, ``Temp`` and ``ldt`` are not used (nor checked), as on AMD.  Before any setup (no device buffer)
  the three are INTERNAL_ERROR; rocSOLVER's statuses come back through ``rocblas2hip_status``.
- ``hipsolverRfResetValues(n, nnzA, rowPtr, colInd, val, P, Q, handle)``: NULL arrays, then n / nnzA other than
  the setup's, are INVALID_VALUE; only the values are copied (the pattern, P and Q are the setup's).
- ``hipsolverRfAccessBundledFactorsDevice(handle, nnzM, Mp, Mi, Mx)``: T's size and its device arrays;
  ``hipsolverRfExtractBundledFactorsHost(handle, h_nnzM, h_Mp, h_Mi, h_Mx)``: T copied into the handle's host
  buffer; ``hipsolverRfExtractSplitFactorsHost(handle, h_nnzL, h_Lp, h_Li, h_Lx, h_nnzU, h_Up, h_Ui, h_Ux)``: T
  split by ``csrrf_splitlu`` into the handle's L and U, copied to the host buffer.  The arrays are addresses
  (``int``) of memory the handle owns (host: real process memory, readable with ctypes/NumPy), valid until the
  next setup with other sizes or Destroy.  NULL outputs are INVALID_VALUE (after the handle), no setup yet
  INTERNAL_ERROR.
- Getters ``hipsolverRfGet_Algs``, ``GetMatrixFormat``, ``GetNumericProperties``, ``GetNumericBoostReport``,
  ``GetResetValuesFastMode``: the handle's settings (NULL handle NOT_INITIALIZED, then a NULL output
  INVALID_VALUE).  Their setters and the whole batch API (``hipsolverRfBatch*``) are NOT_SUPPORTED on AMD,
  whatever the arguments (hip-python's own conversions still come first: integers and doubles convert, enum
  parameters must be the enums, else ``TypeError``/``OverflowError``).

Out-parameters follow rocmath.hip's convention: given, each value is written through it (a ``ctypes`` scalar
is its own storage: ``c_int``, ``c_double``, ``c_void_p`` for an ``int**``) and ``(status,)`` returned; all
omitted, ``(status, *values)`` is returned.  A non-null argument that is no live handle reads as NULL would
(C would dereference it).

One departure from hipsolver_refactor.cpp's layout: every array in the device buffer starts at a 128-byte
boundary (hipSOLVER leaves A's row offsets and columns unrounded, so A's values may be misaligned).
"""

from __future__ import annotations

import ctypes
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import numpy as np

import rocmath
import rocmath.blas as _blas
import rocmath.solver as _solver

from . import hip as _hip
from ._api import binding
from ._lib import Opaque, c_double, c_integer, call_arguments, find, write_host
from ._types import c_enum, check_enum, device_address, pointer_value

__all__ = [
    "RF_NAMES", "RfHandle", "hipsolverRfFactorization_t", "hipsolverRfHandle_t", "hipsolverRfMatrixFormat_t",
    "hipsolverRfNumericBoostReport_t", "hipsolverRfResetValuesFastMode_t", "hipsolverRfTriangularSolve_t",
    "hipsolverRfUnitDiagonal_t", "rf_api",
]

_MODULE = "rocmath.hip.hipsolver"  # where hip-python has them

# --- hipsolver-refactor.h's enums -------------------------------------------------------------------------------

hipsolverRfFactorization_t = c_enum("hipsolverRfFactorization_t", [
    ("HIPSOLVERRF_FACTORIZATION_ALG0", 0), ("HIPSOLVERRF_FACTORIZATION_ALG1", 1),
    ("HIPSOLVERRF_FACTORIZATION_ALG2", 2)], _MODULE, "``hipsolverRfFactorization_t``.")
hipsolverRfMatrixFormat_t = c_enum("hipsolverRfMatrixFormat_t", [
    ("HIPSOLVERRF_MATRIX_FORMAT_CSR", 0), ("HIPSOLVERRF_MATRIX_FORMAT_CSC", 1)], _MODULE,
    "``hipsolverRfMatrixFormat_t``.")
hipsolverRfNumericBoostReport_t = c_enum("hipsolverRfNumericBoostReport_t", [
    ("HIPSOLVERRF_NUMERIC_BOOST_NOT_USED", 0), ("HIPSOLVERRF_NUMERIC_BOOST_USED", 1)], _MODULE,
    "``hipsolverRfNumericBoostReport_t``.")
hipsolverRfResetValuesFastMode_t = c_enum("hipsolverRfResetValuesFastMode_t", [
    ("HIPSOLVERRF_RESET_VALUES_FAST_MODE_OFF", 0), ("HIPSOLVERRF_RESET_VALUES_FAST_MODE_ON", 1)], _MODULE,
    "``hipsolverRfResetValuesFastMode_t``.")
hipsolverRfTriangularSolve_t = c_enum("hipsolverRfTriangularSolve_t", [
    ("HIPSOLVERRF_TRIANGULAR_SOLVE_ALG1", 1), ("HIPSOLVERRF_TRIANGULAR_SOLVE_ALG2", 2),
    ("HIPSOLVERRF_TRIANGULAR_SOLVE_ALG3", 3)], _MODULE, "``hipsolverRfTriangularSolve_t``.")
hipsolverRfUnitDiagonal_t = c_enum("hipsolverRfUnitDiagonal_t", [
    ("HIPSOLVERRF_UNIT_DIAGONAL_STORED_L", 0), ("HIPSOLVERRF_UNIT_DIAGONAL_STORED_U", 1),
    ("HIPSOLVERRF_UNIT_DIAGONAL_ASSUMED_L", 2), ("HIPSOLVERRF_UNIT_DIAGONAL_ASSUMED_U", 3)], _MODULE,
    "``hipsolverRfUnitDiagonal_t``.")

_ENUMS = (hipsolverRfFactorization_t, hipsolverRfMatrixFormat_t, hipsolverRfNumericBoostReport_t,
          hipsolverRfResetValuesFastMode_t, hipsolverRfTriangularSolve_t, hipsolverRfUnitDiagonal_t)

_I4, _F8, _PTR = np.dtype(np.int32), np.dtype(np.float64), np.dtype(np.uint64)


def _rounded(nbytes: int) -> int:
    """hipSOLVER's 128-byte rounding of each array in its buffers."""
    return -(-nbytes // 128) * 128


# --- the handle -------------------------------------------------------------------------------------------------

#: The device buffer's arrays, in hipSOLVER's order: name -> (element type, which size: "n1" n + 1, "n" n, or
#: one of the nnz counts).
_DEVICE = {
    "PtrA": (_I4, "n1"), "PtrL": (_I4, "n1"), "PtrU": (_I4, "n1"), "PtrLU": (_I4, "n1"),
    "IndA": (_I4, "nnzA"), "IndL": (_I4, "nnzL"), "IndU": (_I4, "nnzU"), "IndLU": (_I4, "nnzLU"),
    "P": (_I4, "n"), "Q": (_I4, "n"),
    "ValA": (_F8, "nnzA"), "ValL": (_F8, "nnzL"), "ValU": (_F8, "nnzU"), "ValLU": (_F8, "nnzLU"),
}
_HOST = ("PtrL", "PtrU", "PtrLU", "IndL", "IndU", "IndLU", "ValL", "ValU", "ValLU")


@dataclass
class RfHandle:
    """hipSOLVER's ``hipsolverRfHandle`` (what a :class:`hipsolverRfHandle_t` points to).

    Attributes
    ----------
    blas, rfinfo
        The rocBLAS handle and the ``rocsolver_rfinfo`` made for it.
    fast_mode, matrix_format, diag_format, numeric_boost, fact_alg, solve_alg, effective_zero, boost_val
        The settings the getters report (the setters are NOT_SUPPORTED: these stay the defaults).
    n, nnzA, nnzL, nnzU, nnzLU
        The sizes of the last setup that allocated (0 before any).
    d_buffer, d
        The device buffer (0: none) and the address of each array in it (``_DEVICE``'s names).
    h
        The host arrays (``_HOST``'s names), made on the first extraction after a reallocation (None: not yet).
    """

    blas: Any
    rfinfo: Any
    fast_mode: Any = hipsolverRfResetValuesFastMode_t.HIPSOLVERRF_RESET_VALUES_FAST_MODE_OFF
    matrix_format: Any = hipsolverRfMatrixFormat_t.HIPSOLVERRF_MATRIX_FORMAT_CSR
    diag_format: Any = hipsolverRfUnitDiagonal_t.HIPSOLVERRF_UNIT_DIAGONAL_STORED_L
    numeric_boost: Any = hipsolverRfNumericBoostReport_t.HIPSOLVERRF_NUMERIC_BOOST_NOT_USED
    fact_alg: Any = hipsolverRfFactorization_t.HIPSOLVERRF_FACTORIZATION_ALG0
    solve_alg: Any = hipsolverRfTriangularSolve_t.HIPSOLVERRF_TRIANGULAR_SOLVE_ALG1
    effective_zero: float = 0.0
    boost_val: float = 0.0
    n: int = 0
    nnzA: int = 0
    nnzL: int = 0
    nnzU: int = 0
    nnzLU: int = 0
    d_buffer: int = 0
    d: dict[str, int] = field(default_factory=dict)
    h: dict[str, np.ndarray] | None = None

    def _count(self, which: str) -> int:
        return self.n + 1 if which == "n1" else self.n if which == "n" else int(getattr(self, which))

    def malloc_device(self, n: int, nnzA: int, nnzL: int, nnzU: int) -> None:
        """Size the device buffer for a setup (hipSOLVER's ``malloc_device``): negative sizes are INVALID_VALUE;
        new sizes replace both buffers, the same ones keep them."""
        if min(n, nnzA, nnzL, nnzU) < 0:
            raise _status("INVALID_VALUE", f"negative size (n {n}, nnzA {nnzA}, nnzL {nnzL}, nnzU {nnzU})", "n")
        if (n, nnzA, nnzL, nnzU) == (self.n, self.nnzA, self.nnzL, self.nnzU):
            return
        self.h = None
        self.free_device()
        self.n, self.nnzA, self.nnzL, self.nnzU, self.nnzLU = n, nnzA, nnzL, nnzU, nnzL - n + nnzU
        sizes = {name: _rounded(dt.itemsize * max(self._count(which), 0)) for name, (dt, which) in _DEVICE.items()}
        base = rocmath.malloc(sum(sizes.values()))
        offset = 0
        for name, size in sizes.items():
            self.d[name] = base + offset
            offset += size
        self.d_buffer = base

    def malloc_host(self) -> dict[str, np.ndarray]:
        """The host arrays, made once per device buffer (hipSOLVER's ``malloc_host``)."""
        if self.h is None:
            self.h = {name: np.zeros(max(self._count(_DEVICE[name][1]), 0), _DEVICE[name][0]) for name in _HOST}
        return self.h

    def free_device(self) -> None:
        if self.d_buffer:
            rocmath.free(self.d_buffer)
        self.d_buffer, self.d = 0, {}

    def require_buffer(self) -> None:
        """No setup has allocated yet: INTERNAL_ERROR."""
        if not self.d_buffer:
            raise _status("INTERNAL_ERROR", "no setup has run on this handle (hipsolverRfSetupHost/Device)",
                          "handle")


class hipsolverRfHandle_t(Opaque):
    """A ``hipsolverRfHandle_t`` (its :attr:`target` an :class:`RfHandle`)."""


# --- what the regular module provides (set by rf_api) --------------------------------------------------------------

_R: Any = None


def _status(name: str, message: str, arg: str) -> Exception:
    """A hipSOLVER status of its own, ``HIPSOLVER_STATUS_<name>`` (also the sparse API's,
    rocmath.hip._hipsolver_sp)."""
    from . import hipsolver as regular  # complete whenever a call runs

    return regular.HipsolverStatusError(getattr(regular.hipsolverStatus_t, f"HIPSOLVER_STATUS_{name}"), message,
                                        arg=arg)


def _error(message: str, arg: str) -> Exception:
    return _status("INVALID_VALUE", message, arg)


def _rf(obj: Any) -> RfHandle:
    """The handle argument: NULL (or no live Rf handle) is NOT_INITIALIZED."""
    found = find(obj, hipsolverRfHandle_t)
    if found is None:
        what = "null handle" if pointer_value(obj) == 0 else "not a live hipsolverRfHandle_t"
        raise _status("NOT_INITIALIZED", what, "handle")
    return found.target  # type: ignore[no-any-return]


def _nonnull(a: SimpleNamespace, *names: str) -> None:
    """hipSOLVER's ``if(!p || ...) return INVALID_VALUE`` over ``names``."""
    for name in names:
        value = getattr(a, name)
        if not isinstance(value, ctypes._SimpleCData) and pointer_value(value) == 0:
            raise _status("INVALID_VALUE", "null pointer", name)


def _copy(dst: int, src: Any, nbytes: int, arg: str) -> None:
    """``hipMemcpy`` into the handle's buffer (the source on the host or the device: the runtime decides)."""
    if nbytes > 0:
        rocmath.memcpy(dst, _hip._copy_side(src, nbytes, arg), nbytes)


def _to_host(dst: np.ndarray, src: int) -> None:
    if dst.nbytes > 0:
        rocmath.memcpy(dst, src, dst.nbytes)


# --- the functions -------------------------------------------------------------------------------------------------


def _create() -> Any:
    h = _blas.create_handle()
    try:
        info = _solver.create_rfinfo(h)
    except BaseException:
        _blas.destroy_handle(h)
        raise
    return hipsolverRfHandle_t.new(RfHandle(h, info))


def _destroy(a: SimpleNamespace) -> None:
    found = find(a.handle, hipsolverRfHandle_t)
    if found is None:
        raise _status("INVALID_VALUE", "null handle" if pointer_value(a.handle) == 0 else "not a live handle",
                      "handle")
    rf: RfHandle = found.target
    rf.h = None
    rf.free_device()
    _solver.destroy_rfinfo(rf.rfinfo)
    _blas.destroy_handle(rf.blas)
    found.release()


def _setup(a: SimpleNamespace, host: bool) -> None:
    p = "h_" if host else ""
    rf = _rf(a.handle)
    for m in "ALU":
        _nonnull(a, f"{p}csrRowPtr{m}", f"{p}csrColInd{m}", f"{p}csrVal{m}")
    _nonnull(a, f"{p}P", f"{p}Q")
    n, nnzA, nnzL, nnzU = a.n, a.nnzA, a.nnzL, a.nnzU
    rf.malloc_device(n, nnzA, nnzL, nnzU)
    if not rf.d_buffer:  # every size 0 on a fresh handle: hipSOLVER's first hipMemcpy targets an unset pointer
        raise _status("INTERNAL_ERROR", "no device buffer: a fresh handle set up with every size 0", "n")
    d = rf.d
    _copy(d["PtrA"], getattr(a, f"{p}csrRowPtrA"), 4 * (n + 1), f"{p}csrRowPtrA")
    _copy(d["IndA"], getattr(a, f"{p}csrColIndA"), 4 * nnzA, f"{p}csrColIndA")
    _copy(d["ValA"], getattr(a, f"{p}csrValA"), 8 * nnzA, f"{p}csrValA")
    if host:
        for m, nnz in (("L", nnzL), ("U", nnzU)):
            _copy(d[f"Ptr{m}"], getattr(a, f"h_csrRowPtr{m}"), 4 * (n + 1), f"h_csrRowPtr{m}")
            _copy(d[f"Ind{m}"], getattr(a, f"h_csrColInd{m}"), 4 * nnz, f"h_csrColInd{m}")
            _copy(d[f"Val{m}"], getattr(a, f"h_csrVal{m}"), 8 * nnz, f"h_csrVal{m}")
        lu = (d["PtrL"], d["IndL"], d["ValL"], nnzU, d["PtrU"], d["IndU"], d["ValU"])
    else:
        lu = (*(device_address(getattr(a, f"csr{x}L")) for x in ("RowPtr", "ColInd", "Val")), nnzU,
              *(device_address(getattr(a, f"csr{x}U")) for x in ("RowPtr", "ColInd", "Val")))
    _solver.dcsrrf_sumlu(rf.blas, n, nnzL, *lu, d["PtrLU"], d["IndLU"], d["ValLU"])
    _copy(d["P"], getattr(a, f"{p}P"), 4 * n, f"{p}P")
    _copy(d["Q"], getattr(a, f"{p}Q"), 4 * n, f"{p}Q")


def _analyze(a: SimpleNamespace) -> None:
    rf = _rf(a.handle)
    rf.require_buffer()
    d = rf.d
    _solver.dcsrrf_analysis(rf.blas, rf.n, 1, rf.nnzA, d["PtrA"], d["IndA"], d["ValA"], rf.nnzLU, d["PtrLU"],
                            d["IndLU"], d["ValLU"], d["P"], d["Q"], d["ValA"], rf.n, rf.rfinfo)


def _refactor(a: SimpleNamespace) -> None:
    rf = _rf(a.handle)
    rf.require_buffer()
    d = rf.d
    _solver.dcsrrf_refactlu(rf.blas, rf.n, rf.nnzA, d["PtrA"], d["IndA"], d["ValA"], rf.nnzLU, d["PtrLU"],
                            d["IndLU"], d["ValLU"], d["P"], d["Q"], rf.rfinfo)


def _solve(a: SimpleNamespace) -> None:
    rf = _rf(a.handle)
    rf.require_buffer()
    d = rf.d
    _solver.dcsrrf_solve(rf.blas, rf.n, a.nrhs, rf.nnzLU, d["PtrLU"], d["IndLU"], d["ValLU"], d["P"], d["Q"],
                         device_address(a.XF), a.ldxf, rf.rfinfo)


def _reset_values(a: SimpleNamespace) -> None:
    rf = _rf(a.handle)
    _nonnull(a, "csrRowPtrA", "csrColIndA", "csrValA")
    _nonnull(a, "P", "Q")
    if a.n != rf.n:
        raise _status("INVALID_VALUE", f"n {a.n} is not the setup's {rf.n}", "n")
    if a.nnzA != rf.nnzA:
        raise _status("INVALID_VALUE", f"nnzA {a.nnzA} is not the setup's {rf.nnzA}", "nnzA")
    rf.require_buffer()
    _copy(rf.d["ValA"], a.csrValA, 8 * a.nnzA, "csrValA")


def _access_bundled(a: SimpleNamespace) -> tuple[int, ...]:
    rf = _rf(a.handle)
    if a.present:
        _nonnull(a, "nnzM", "Mp", "Mi", "Mx")
    rf.require_buffer()
    return rf.nnzLU, rf.d["PtrLU"], rf.d["IndLU"], rf.d["ValLU"]


def _extract_bundled(a: SimpleNamespace) -> tuple[int, ...]:
    rf = _rf(a.handle)
    if a.present:
        _nonnull(a, "h_nnzM", "h_Mp", "h_Mi", "h_Mx")
    rf.require_buffer()
    h = rf.malloc_host()
    for name in ("PtrLU", "IndLU", "ValLU"):
        _to_host(h[name], rf.d[name])
    return rf.nnzLU, *(int(h[name].ctypes.data) for name in ("PtrLU", "IndLU", "ValLU"))


def _extract_split(a: SimpleNamespace) -> tuple[int, ...]:
    rf = _rf(a.handle)
    if a.present:
        _nonnull(a, "h_nnzL", "h_Lp", "h_Li", "h_Lx")
        _nonnull(a, "h_nnzU", "h_Up", "h_Ui", "h_Ux")
    rf.require_buffer()
    h = rf.malloc_host()
    d = rf.d
    _solver.dcsrrf_splitlu(rf.blas, rf.n, rf.nnzLU, d["PtrLU"], d["IndLU"], d["ValLU"], d["PtrL"], d["IndL"],
                           d["ValL"], d["PtrU"], d["IndU"], d["ValU"])
    out: list[int] = []
    for m, nnz in (("L", rf.nnzL), ("U", rf.nnzU)):
        for kind in ("Ptr", "Ind", "Val"):
            _to_host(h[f"{kind}{m}"], d[f"{kind}{m}"])
        out += [nnz, *(int(h[f"{kind}{m}"].ctypes.data) for kind in ("Ptr", "Ind", "Val"))]
    return tuple(out)


def _getter(*attrs: str) -> Callable[[SimpleNamespace], Any]:
    def get(a: SimpleNamespace) -> Any:
        rf = _rf(a.handle)
        if a.present:
            for name in a.outs:  # one check each in hipSOLVER, all INVALID_VALUE
                _nonnull(a, name)
        values = tuple(getattr(rf, attr) for attr in attrs)
        return values if len(values) > 1 else values[0]

    return get


def _not_supported(a: SimpleNamespace) -> None:
    raise _status("NOT_SUPPORTED", "not supported by hipSOLVER's AMD backend", a.name)


# --- the table ---------------------------------------------------------------------------------------------------

_A = "csrRowPtrA csrColIndA csrValA"
_SETUP = f"n nnzA {_A} nnzL csrRowPtrL csrColIndL csrValL nnzU csrRowPtrU csrColIndU csrValU P Q handle"
_H_SETUP = " ".join(p if p in ("n", "nnzA", "nnzL", "nnzU", "handle") else f"h_{p}" for p in _SETUP.split())


@dataclass(frozen=True)
class _Entry:
    """One hipsolverRf (or hipsolverSp, rocmath.hip._hipsolver_sp) function: hip-python's parameters, the C types
    of the converted ones (``floats``: C ``float``, a double rounded), the out-parameters (name -> stored dtype;
    optional: returned when all are omitted; ``writes_outs`` False: the body writes them itself, through
    ``a.present``, and returns their value), and the exception-style body."""

    params: str
    body: Callable[[SimpleNamespace], Any]
    ints: tuple[str, ...] = ()
    doubles: tuple[str, ...] = ()
    enums: dict[str, type] = field(default_factory=dict)
    outs: dict[str, np.dtype] = field(default_factory=dict)
    doc: str = ""
    floats: tuple[str, ...] = ()
    writes_outs: bool = True


_BATCH_SETUP = ("batchSize n nnzA h_csrRowPtrA h_csrColIndA h_csrValA_array nnzL h_csrRowPtrL h_csrColIndL "
                "h_csrValL nnzU h_csrRowPtrU h_csrColIndU h_csrValU h_P h_Q handle")

#: hip-python 6.2's hipsolverRf functions (but Create, written out), in its order.
RF_TABLE: dict[str, _Entry] = {
    "hipsolverRfDestroy": _Entry("handle", _destroy, doc="free the handle, its buffers, rfinfo and rocBLAS handle"),
    "hipsolverRfSetupDevice": _Entry(_SETUP, lambda a: _setup(a, False), ints=("n", "nnzA", "nnzL", "nnzU"),
                                     doc="A, P, Q (device) copied into the handle, L and U (device) bundled into T"),
    "hipsolverRfSetupHost": _Entry(_H_SETUP, lambda a: _setup(a, True), ints=("n", "nnzA", "nnzL", "nnzU"),
                                   doc="A, L, U, P, Q (host) copied into the handle, L and U bundled into T"),
    "hipsolverRfAccessBundledFactorsDevice": _Entry(
        "handle nnzM Mp Mi Mx", _access_bundled, outs={"nnzM": _I4, "Mp": _PTR, "Mi": _PTR, "Mx": _PTR},
        doc="nnz of T and the device addresses of its row offsets, columns and values"),
    "hipsolverRfAnalyze": _Entry("handle", _analyze, doc="csrrf_analysis of T (lu mode, nrhs 1)"),
    "hipsolverRfExtractBundledFactorsHost": _Entry(
        "handle h_nnzM h_Mp h_Mi h_Mx", _extract_bundled,
        outs={"h_nnzM": _I4, "h_Mp": _PTR, "h_Mi": _PTR, "h_Mx": _PTR},
        doc="T = (L - I) + U copied to the handle's host memory: nnz and the addresses of its arrays"),
    "hipsolverRfExtractSplitFactorsHost": _Entry(
        "handle h_nnzL h_Lp h_Li h_Lx h_nnzU h_Up h_Ui h_Ux", _extract_split,
        outs={"h_nnzL": _I4, "h_Lp": _PTR, "h_Li": _PTR, "h_Lx": _PTR, "h_nnzU": _I4, "h_Up": _PTR, "h_Ui": _PTR,
              "h_Ux": _PTR},
        doc="T split by csrrf_splitlu into L (unit diagonal stored) and U, copied to the handle's host memory"),
    "hipsolverRfGet_Algs": _Entry("handle fact_alg solve_alg", _getter("fact_alg", "solve_alg"),
                                  outs={"fact_alg": _I4, "solve_alg": _I4}, doc="the algorithms (ALG0, ALG1)"),
    "hipsolverRfGetMatrixFormat": _Entry("handle format diag", _getter("matrix_format", "diag_format"),
                                         outs={"format": _I4, "diag": _I4},
                                         doc="the matrix format (CSR) and unit diagonal (STORED_L)"),
    "hipsolverRfGetNumericBoostReport": _Entry("handle report", _getter("numeric_boost"), outs={"report": _I4},
                                               doc="whether a numeric boost was used (NOT_USED)"),
    "hipsolverRfGetNumericProperties": _Entry("handle zero boost", _getter("effective_zero", "boost_val"),
                                              outs={"zero": _F8, "boost": _F8},
                                              doc="the effective zero and boost value (0.0, 0.0)"),
    "hipsolverRfGetResetValuesFastMode": _Entry("handle fastMode", _getter("fast_mode"), outs={"fastMode": _I4},
                                                doc="the reset-values fast mode (OFF)"),
    "hipsolverRfRefactor": _Entry("handle", _refactor, doc="csrrf_refactlu of the stored A into T"),
    "hipsolverRfResetValues": _Entry("n nnzA csrRowPtrA csrColIndA csrValA P Q handle", _reset_values,
                                     ints=("n", "nnzA"), doc="new values of A (device; same n, nnzA and pattern)"),
    "hipsolverRfSetAlgs": _Entry("handle fact_alg solve_alg", _not_supported,
                                 enums={"fact_alg": hipsolverRfFactorization_t,
                                        "solve_alg": hipsolverRfTriangularSolve_t}, doc="NOT_SUPPORTED"),
    "hipsolverRfSetMatrixFormat": _Entry("handle format diag", _not_supported,
                                         enums={"format": hipsolverRfMatrixFormat_t,
                                                "diag": hipsolverRfUnitDiagonal_t}, doc="NOT_SUPPORTED"),
    "hipsolverRfSetNumericProperties": _Entry("handle effective_zero boost_val", _not_supported,
                                              doubles=("effective_zero", "boost_val"), doc="NOT_SUPPORTED"),
    "hipsolverRfSetResetValuesFastMode": _Entry("handle fastMode", _not_supported,
                                                enums={"fastMode": hipsolverRfResetValuesFastMode_t},
                                                doc="NOT_SUPPORTED"),
    "hipsolverRfSolve": _Entry("handle P Q nrhs Temp ldt XF ldxf", _solve, ints=("nrhs", "ldt", "ldxf"),
                               doc="csrrf_solve of the device XF (ldxf) with the handle's P and Q (the given P, "
                                   "Q, Temp, ldt are not used)"),
    "hipsolverRfBatchSetupHost": _Entry(_BATCH_SETUP, _not_supported,
                                        ints=("batchSize", "n", "nnzA", "nnzL", "nnzU"), doc="NOT_SUPPORTED"),
    "hipsolverRfBatchAnalyze": _Entry("handle", _not_supported, doc="NOT_SUPPORTED"),
    "hipsolverRfBatchRefactor": _Entry("handle", _not_supported, doc="NOT_SUPPORTED"),
    "hipsolverRfBatchResetValues": _Entry("batchSize n nnzA csrRowPtrA csrColIndA csrValA_array P Q handle",
                                          _not_supported, ints=("batchSize", "n", "nnzA"), doc="NOT_SUPPORTED"),
    "hipsolverRfBatchSolve": _Entry("handle P Q nrhs Temp ldt XF_array ldxf", _not_supported,
                                    ints=("nrhs", "ldt", "ldxf"), doc="NOT_SUPPORTED"),
    "hipsolverRfBatchZeroPivot": _Entry("handle position", _not_supported, doc="NOT_SUPPORTED"),
}

#: Every hipsolverRf name bound, hip-python's order.
RF_NAMES = ("hipsolverRfCreate", *RF_TABLE)


def _bind(name: str, e: _Entry) -> Callable[..., tuple[Any, ...]]:
    """hip-python's function ``name``: arguments by position or keyword, converted as its Cython does on entry
    (integers, doubles in parameter order, then the enum checks), the out-parameters written or returned."""
    params = tuple(e.params.split())
    outs = e.outs
    others = tuple(p for p in params if p not in outs)

    def prepare(given: dict[str, Any], present: bool) -> SimpleNamespace:
        for p in params:
            if p in e.ints:
                given[p] = c_integer(given[p], p, "int")
            elif p in e.doubles:
                given[p] = c_double(given[p], p)
            elif p in e.floats:
                given[p] = ctypes.c_float(c_double(given[p], p)).value
        for p, cls in e.enums.items():
            check_enum(given[p], cls, p)
        return SimpleNamespace(**given, present=present, outs=tuple(outs), name=name, result=None)

    def written(a: SimpleNamespace) -> None:
        values = e.body(a)
        if outs and e.writes_outs:
            values = values if len(outs) > 1 else (values,)
            for (p, dtype), value in zip(outs.items(), values, strict=True):
                write_host(getattr(a, p), value if isinstance(value, float) else int(value), dtype, p, _error)

    def returned(a: SimpleNamespace) -> Any:
        return e.body(a)

    for fn in (written, returned):
        fn.__name__ = fn.__qualname__ = name
    with_outs = binding(_R._HIPSOLVER)(written)
    without_outs = binding(_R._HIPSOLVER, len(outs))(returned) if outs else with_outs

    def call(*args: Any, **kwargs: Any) -> tuple[Any, ...]:
        full = not outs or len(args) + len(kwargs) >= len(params) or any(k in outs for k in kwargs)
        given = call_arguments(name, params if full else others, args, kwargs)
        a = prepare(given, full)
        return with_outs(a) if full else without_outs(a)

    call.__name__ = call.__qualname__ = name
    call.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in params])
    shown = ", ".join(params)
    returns = f" (or, the out-parameters omitted, (status, {', '.join(outs)}))" if outs else ""
    call.__doc__ = f"{name}({shown}) -> (hipsolverStatus_t,){returns}: {e.doc}."
    return call


def rf_api() -> dict[str, Any]:
    """The hipsolverRf names (functions, enums, the handle class) for :mod:`rocmath.hip.hipsolver`'s namespace and
    ``__all__`` (it calls this at its end): its status table, exception and statuses serve every function here."""
    from . import hipsolver as regular  # at its end: everything but this API is defined

    global _R
    _R = regular

    def create() -> Any:
        return _create()

    create.__name__ = create.__qualname__ = "hipsolverRfCreate"
    create.__doc__ = ("hipsolverRfCreate() -> (hipsolverStatus_t, hipsolverRfHandle_t): a new handle (its own "
                      "rocBLAS handle on the null stream and rfinfo, the default settings, no buffers).")
    made: dict[str, Any] = {"hipsolverRfCreate": binding(regular._HIPSOLVER, 1)(create)}
    made.update({name: _bind(name, entry) for name, entry in RF_TABLE.items()})
    made.update({cls.__name__: cls for cls in _ENUMS})
    made["hipsolverRfHandle_t"] = hipsolverRfHandle_t
    return made
