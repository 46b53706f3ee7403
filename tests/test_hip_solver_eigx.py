"""hipSOLVER's syevdx/heevdx, sygvdx/hegvdx, sygvj/hegvj and sytrf (with their ``_bufferSize``) as hip-python calls
them, over rocmath.solver.

hipSOLVER's AMD backend runs syevdx/sygvdx as rocSOLVER's ``_inplace`` routines (the eigenvectors in A, nev to a
host ``int*``, abstol 0); here they are rocmath.solver's syevdx/sygvdx into a scratch Z and a scratch device nev (both
from ``work``), nev then copied to the host and Z's first nev columns into A.  Each call is checked bit for bit against
those rocmath.solver calls on a copy of the same data, after the workspace query (returned, or written through a
``ctypes.c_int``), with a given ``work``, with the handle's own and by keyword, and against SciPy (eigh's subsets,
LAPACK's ?sytrf).  The statuses are hipSOLVER's: NOT_INITIALIZED for a null handle, INVALID_VALUE for a null ``lwork``,
a null parameters object (sygvj, before anything else), a null ``nev`` and rocSOLVER's size checks, INVALID_ENUM for a
full fill mode, INTERNAL_ERROR for a workspace past INT_MAX; TypeError/OverflowError as hip-python's Cython raises them.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import scipy.linalg as sla
from hip_util import check, to_device, to_host
from scipy.linalg import lapack

from rocmath import blas, solver
from rocmath.hip import hip, hipblas, hipsolver

S = hipsolver.hipsolverStatus_t
FILL = hipblas.hipblasFillMode_t
UPPER, LOWER, FULL = FILL.HIPBLAS_FILL_MODE_UPPER, FILL.HIPBLAS_FILL_MODE_LOWER, FILL.HIPBLAS_FILL_MODE_FULL
VECTOR = hipsolver.hipsolverEigMode_t.HIPSOLVER_EIG_MODE_VECTOR
NOVECTOR = hipsolver.hipsolverEigMode_t.HIPSOLVER_EIG_MODE_NOVECTOR
RANGE = hipsolver.hipsolverEigRange_t
ALL, VALUE, INDEX = RANGE.HIPSOLVER_EIG_RANGE_ALL, RANGE.HIPSOLVER_EIG_RANGE_V, RANGE.HIPSOLVER_EIG_RANGE_I
ITYPE = {1: hipsolver.hipsolverEigType_t.HIPSOLVER_EIG_TYPE_1, 2: hipsolver.hipsolverEigType_t.HIPSOLVER_EIG_TYPE_2,
         3: hipsolver.hipsolverEigType_t.HIPSOLVER_EIG_TYPE_3}
DTYPE = {"S": np.float32, "D": np.float64, "C": np.complex64, "Z": np.complex128}
REAL = {"S": np.float32, "D": np.float64, "C": np.float32, "Z": np.float64}
TOL = {"S": 2e-4, "D": 1e-11, "C": 2e-4, "Z": 1e-11}
#: hipSOLVER enum -> rocmath.solver's (hip2rocblas_evect / _erange / _eform / _fill).
ROC = {VECTOR: solver.Evect.original, NOVECTOR: solver.Evect.none, ALL: solver.Erange.all,
       VALUE: solver.Erange.value, INDEX: solver.Erange.index, UPPER: solver.Fill.upper, LOWER: solver.Fill.lower,
       **{t: solver.Eform(220 + i) for i, t in ITYPE.items()}}
HOWS = ["work", "managed", "keywords", "ctypes"]


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = check(hipsolver.hipsolverCreate())
    yield h
    check(hipsolver.hipsolverDestroy(h))


@pytest.fixture(scope="module")
def roc() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


class Dev:
    """Device memory and parameters objects of one test, freed together."""

    def __init__(self) -> None:
        self.ptrs: list[Any] = []
        self.params: list[Any] = []

    def put(self, a: np.ndarray) -> Any:
        self.ptrs.append(to_device(np.asfortranarray(a)))
        return self.ptrs[-1]

    def empty(self, nbytes: int) -> Any:
        self.ptrs.append(check(hip.hipMalloc(max(nbytes, 1))))
        return self.ptrs[-1]

    def info(self) -> Any:
        return self.put(np.full(1, -7, np.int32))  # not zero: the routine must write it

    def syevj_info(self, tolerance: float, sweeps: int) -> Any:
        p = check(hipsolver.hipsolverCreateSyevjInfo())
        self.params.append(p)
        check(hipsolver.hipsolverXsyevjSetTolerance(p, tolerance))
        check(hipsolver.hipsolverXsyevjSetMaxSweeps(p, sweeps))
        return p

    def free(self) -> None:
        for p in self.ptrs:
            check(hip.hipFree(p))
        for p in self.params:
            check(hipsolver.hipsolverDestroySyevjInfo(p))


@pytest.fixture
def dev() -> Iterator[Dev]:
    d = Dev()
    yield d
    d.free()


def rand(letter: str, *shape: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, shape)
    if letter in "CZ":
        a = a + 1j * rng.uniform(-1, 1, shape)
    return np.asfortranarray(a.astype(DTYPE[letter]))


def hermitian(letter: str, n: int, seed: int) -> np.ndarray:
    m = rand(letter, n, n, seed=seed)
    return np.asfortranarray((m + m.conj().T).astype(DTYPE[letter]))


def hpd(letter: str, n: int, seed: int) -> np.ndarray:
    m = rand(letter, n, n, seed=seed)
    return np.asfortranarray((m @ m.conj().T + n * np.eye(n)).astype(DTYPE[letter]))


def padded(a: np.ndarray, ld: int) -> np.ndarray:
    """``a`` in an ``ld``-row array, the padding rows a recognisable value."""
    out = np.full((ld, a.shape[1]), 5, a.dtype, order="F")
    out[: a.shape[0]] = a
    return out


def host(d: Any, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    return to_host(d, np.zeros(shape, dtype, order="F"))


def fn(letter: str, family: str, suffix: str = "", dn: bool = False) -> Any:
    return getattr(hipsolver, f"hipsolver{'Dn' if dn else ''}{letter}{hipsolver.FAMILIES[family].ops[letter]}{suffix}")


def routine(letter: str, family: str) -> Any:
    """The rocmath.solver routine hipSOLVER's call maps to."""
    return getattr(solver, f"{letter.lower()}{hipsolver.FAMILIES[family].ops[letter]}")


def rounded(nbytes: int) -> int:
    return -(-nbytes // 64) * 64


def roc_size(roc: Any, call: Any, *args: Any) -> int:
    blas.start_device_memory_size_query(roc)
    call(roc, *args)
    return blas.stop_device_memory_size_query(roc)


def query_and_call(handle: Any, dev: Dev, letter: str, family: str, values: dict[str, Any], how: str,
                   dn: bool = False) -> int:
    """hipSOLVER's query (returned, or through a ctypes.c_int), then the call (``work`` given, the handle's own, or by
    keyword); the query's answer."""
    fam = hipsolver.FAMILIES[family]
    query_args = [values[p] for p in fam.query.split() if p != "lwork"]
    if how == "ctypes":
        out = ctypes.c_int(-1)
        query = fn(letter, family, "_bufferSize", dn)
        if family == "sygvj":  # lwork comes before params
            check(query(handle, *query_args[:-1], out, query_args[-1]))
        else:
            check(query(handle, *query_args, out))
        lwork = out.value
    else:
        lwork = check(fn(letter, family, "_bufferSize", dn)(handle, *query_args))
    given = {**values, "work": None, "lwork": 0}
    if how in ("work", "keywords"):
        given.update(work=dev.empty(lwork), lwork=lwork)
    f = fn(letter, family, "", dn)
    if how == "keywords":
        check(f(**dict(reversed([("handle", handle), *((p, given[p]) for p in fam.params.split())]))))
    else:
        check(f(handle, *(given[p] for p in fam.params.split())))
    return lwork


def spectrum(letter: str, a: np.ndarray, b: np.ndarray | None, itype: int, **subset: Any) -> np.ndarray:
    """scipy.linalg.eigh's eigenvalues (``subset``: its subset_by_index / subset_by_value, (vl, vu] as rocSOLVER's)."""
    wide = np.complex128 if letter in "CZ" else np.float64
    return sla.eigh(a.astype(wide), None if b is None else b.astype(wide), type=itype, eigvals_only=True, **subset)


def selection(rng: Any, w: np.ndarray) -> tuple[float, float, int, int]:
    """vl, vu (between eigenvalues: 2 through n - 2 of them, 1-based) and il, iu."""
    n = len(w)
    if rng == VALUE:
        return float((w[0] + w[1]) / 2), float((w[n - 2] + w[n - 1]) / 2), 0, 0
    if rng == INDEX:
        return 0.0, 0.0, 2, n - 1
    return 0.0, 0.0, 0, 0


def residual_ok(letter: str, a: np.ndarray, b: np.ndarray | None, itype: int, w: np.ndarray, z: np.ndarray) -> None:
    a = a.astype(np.complex128)
    b = np.eye(len(a)) if b is None else b.astype(np.complex128)
    lhs = {1: a @ z, 2: a @ b @ z, 3: b @ a @ z}[itype]
    rhs = (b @ z if itype == 1 else z) * w
    assert np.linalg.norm(lhs - rhs) <= 50 * TOL[letter] * np.linalg.norm(a) * max(np.linalg.norm(z), 1)


# --- syevdx/heevdx, sygvdx/hegvdx ---------------------------------------------------------------------------------

EIGX_CASES = [  # (jobz, range, uplo, itype, how, nev as a ctypes.c_int or an int32 array)
    (VECTOR, INDEX, LOWER, 1, "work", "ctypes"),
    (VECTOR, VALUE, UPPER, 2, "managed", "array"),
    (NOVECTOR, INDEX, UPPER, 3, "keywords", "ctypes"),
    (VECTOR, ALL, LOWER, 1, "ctypes", "array"),
]


def run_eigx(handle: Any, roc: Any, dev: Dev, letter: str, family: str, jobz: Any, rng: Any, uplo: Any, itype: int,
             how: str, nev_kind: str, n: int = 6, seed: int = 0, dn: bool = False) -> dict[str, Any]:
    """hipSOLVER's call and the rocmath.solver call it maps to on a copy of the same data: the results compared bit
    for bit (A gets Z's first nev columns); returns the host data and hipSOLVER's results."""
    gen = family == "sygvdx"
    lda, ldb = n + 1, n + 2
    a = hermitian(letter, n, seed)
    b = hpd(letter, n, seed + 50) if gen else None
    vl, vu, il, iu = selection(rng, spectrum(letter, a, b, itype))
    real, vectors = REAL[letter], jobz == VECTOR
    nev = ctypes.c_int(-1) if nev_kind == "ctypes" else np.full(1, -1, np.int32)
    values: dict[str, Any] = {"itype": ITYPE[itype], "jobz": jobz, "range": rng, "uplo": uplo, "n": n,
                              "A": dev.put(padded(a, lda)), "lda": lda, "vl": vl, "vu": vu, "il": il, "iu": iu,
                              "nev": nev, "W": dev.put(np.full(n, 3, real)), "devInfo": dev.info()}
    if gen:
        values.update(B=dev.put(padded(b, ldb)), ldb=ldb)
    lwork = query_and_call(handle, dev, letter, family, values, how, dn)
    got = {"nev": int(nev.value if nev_kind == "ctypes" else nev[0]), "info": int(host(values["devInfo"], (1,),
                                                                                       np.int32)[0]),
           "A": host(values["A"], (lda, n), DTYPE[letter]), "W": host(values["W"], (n,), real)}
    if gen:
        got["B"] = host(values["B"], (ldb, n), DTYPE[letter])

    # the reference: rocmath.solver's syevdx/sygvdx into Z (ldz = n) and a device nev
    rA, rW, rZ = dev.put(padded(a, lda)), dev.put(np.full(n, 3, real)), dev.put(np.zeros((n, n), DTYPE[letter]))
    rnev, rinfo = dev.info(), dev.info()
    head: tuple[Any, ...] = (ROC[jobz], ROC[rng], ROC[uplo], n)
    mats: tuple[Any, ...] = (int(rA), lda)
    if gen:
        rB = dev.put(padded(b, ldb))
        head, mats = (ROC[ITYPE[itype]], *head), (int(rA), lda, int(rB), ldb)
    size = roc_size(roc, routine(letter, family), *head, None, lda, *((None, ldb) if gen else ()), vl, vu, il, iu,
                    None, None, None, n, None)
    assert lwork == rounded(size) + (rounded(n * n * np.dtype(DTYPE[letter]).itemsize) if vectors else 0) + 64
    routine(letter, family)(roc, *head, *mats, vl, vu, il, iu, int(rnev), int(rW), int(rZ) if vectors else None, n,
                            int(rinfo))
    want_nev = int(host(rnev, (1,), np.int32)[0])
    want_a = host(rA, (lda, n), DTYPE[letter])
    if vectors:
        want_a[:n, :want_nev] = host(rZ, (n, n), DTYPE[letter])[:, :want_nev]
    assert (got["nev"], got["info"]) == (want_nev, int(host(rinfo, (1,), np.int32)[0]))
    assert got["A"].tobytes() == want_a.tobytes()
    assert got["W"].tobytes() == host(rW, (n,), real).tobytes()
    if gen:
        assert got["B"].tobytes() == host(rB, (ldb, n), DTYPE[letter]).tobytes()
    return {"a": a, "b": b, "lwork": lwork, **got}


@pytest.mark.parametrize("letter", "SDCZ")
@pytest.mark.parametrize("family", ["syevdx", "sygvdx"])
@pytest.mark.parametrize("case", range(len(EIGX_CASES)))
def test_eigx(handle: Any, roc: Any, dev: Dev, letter: str, family: str, case: int) -> None:
    jobz, rng, uplo, itype, how, nev_kind = EIGX_CASES[case]
    itype = itype if family == "sygvdx" else 1
    n = 6
    got = run_eigx(handle, roc, dev, letter, family, jobz, rng, uplo, itype, how, nev_kind, n=n, seed=case)
    a, b = got["a"], got["b"]
    vl, vu, il, iu = selection(rng, spectrum(letter, a, b, itype))
    subset = {VALUE: {"subset_by_value": (vl, vu)}, INDEX: {"subset_by_index": (il - 1, iu - 1)}}.get(rng, {})
    want = spectrum(letter, a, b, itype, **subset)
    assert got["nev"] == len(want) == (n if rng == ALL else n - 2) and got["info"] == 0
    np.testing.assert_allclose(got["W"][: got["nev"]], want, rtol=TOL[letter], atol=TOL[letter] * np.abs(want).max())
    if jobz == VECTOR:
        residual_ok(letter, a, b, itype, want, got["A"][:n, : got["nev"]])
    np.testing.assert_array_equal(got["A"][n:], 5)  # the padding rows untouched


def test_eigx_float_bounds_are_rounded_on_entry(handle: Any, dev: Dev) -> None:
    """``vl``/``vu`` are C floats in S/C (hip-python's Cython rounds them): vu just below 1 is 1 in single precision,
    so eigenvalue 1 is in (vl, vu] for S, not for D."""
    n = 3
    for letter, want in (("S", 2), ("D", 1)):
        a = np.diag(np.array([0.5, 1.0, 2.0], DTYPE[letter]))
        dA, dW, info, nev = dev.put(a), dev.put(np.zeros(n, REAL[letter])), dev.info(), np.full(1, -1, np.int32)
        check(fn(letter, "syevdx")(handle, NOVECTOR, VALUE, UPPER, n, dA, n, 0.0, 1.0 - 1e-12, 0, 0, nev, dW, None, 0,
                                   info))
        assert nev[0] == want, letter


def test_eigx_empty_and_b_not_positive_definite(handle: Any, roc: Any, dev: Dev) -> None:
    n = 4
    dA, dB, dW, info, nev = dev.put(hermitian("D", n, 1)), dev.put(-np.eye(n)), dev.put(np.zeros(n)), dev.info(), \
        ctypes.c_int(-1)
    # n = 0: info and nev 0, and no scratch Z (64 bytes for the device nev)
    assert check(hipsolver.hipsolverDsyevdx_bufferSize(handle, VECTOR, ALL, LOWER, 0, None, 1, 0.0, 0.0, 0, 0, None,
                                                       None)) == 64
    check(hipsolver.hipsolverDsyevdx(handle, VECTOR, ALL, LOWER, 0, None, 1, 0.0, 0.0, 0, 0, nev, None, None, 0, info))
    assert (nev.value, host(info, (1,), np.int32)[0]) == (0, 0)
    # B = -I: potrf fails at the first minor, info = n + 1, nev = 0 (rocSOLVER's sygvx_update_info)
    nev.value = -1
    check(hipsolver.hipsolverDsygvdx(handle, ITYPE[1], VECTOR, ALL, UPPER, n, dA, n, dB, n, 0.0, 0.0, 0, 0, nev, dW,
                                     None, 0, info))
    assert (nev.value, host(info, (1,), np.int32)[0]) == (0, n + 1)


def test_eigx_statuses(handle: Any, dev: Dev) -> None:
    n = 4
    a = hermitian("D", n, 3)
    dA, dB, dW, info, nev = dev.put(a), dev.put(hpd("D", n, 4)), dev.put(np.zeros(n)), dev.info(), ctypes.c_int(-9)
    ev, gv = hipsolver.hipsolverDsyevdx, hipsolver.hipsolverDsygvdx
    evq, gvq = hipsolver.hipsolverDsyevdx_bufferSize, hipsolver.hipsolverDsygvdx_bufferSize
    one = ITYPE[1]
    # the query: a null handle, a null lwork, a fill mode rocBLAS has not (hip2rocblas_fill), a size past INT_MAX
    assert evq(None, VECTOR, ALL, LOWER, n, dA, n, 0.0, 0.0, 0, 0, nev, dW) == (S.HIPSOLVER_STATUS_NOT_INITIALIZED,
                                                                              None)
    assert evq(handle, VECTOR, ALL, LOWER, n, dA, n, 0.0, 0.0, 0, 0, nev, dW, None) == (
        S.HIPSOLVER_STATUS_INVALID_VALUE,)
    assert gvq(handle, one, VECTOR, ALL, FULL, n, dA, n, dB, n, 0.0, 0.0, 0, 0, nev, dW) == (
        S.HIPSOLVER_STATUS_INVALID_ENUM, None)
    big = 20000  # Z alone is 3.2 GB
    assert evq(handle, VECTOR, ALL, LOWER, big, None, big, 0.0, 0.0, 0, 0, None, None) == (
        S.HIPSOLVER_STATUS_INTERNAL_ERROR, None)
    # the call: a null handle (with or without work), a full fill mode, rocSOLVER's size checks, a null nev
    work = dev.empty(1 << 16)
    assert ev(None, VECTOR, ALL, LOWER, n, dA, n, 0.0, 0.0, 0, 0, nev, dW, None, 0, info) == (
        S.HIPSOLVER_STATUS_NOT_INITIALIZED,)
    assert ev(None, VECTOR, ALL, LOWER, n, dA, n, 0.0, 0.0, 0, 0, nev, dW, work, 1 << 16, info) == (
        S.HIPSOLVER_STATUS_NOT_INITIALIZED,)
    assert ev(None, VECTOR, ALL, FULL, n, dA, n, 0.0, 0.0, 0, 0, nev, dW, None, 0, info) == (
        S.HIPSOLVER_STATUS_NOT_INITIALIZED,)  # the handle first
    assert ev(handle, VECTOR, ALL, FULL, n, dA, n, 0.0, 0.0, 0, 0, nev, dW, None, 0, info) == (
        S.HIPSOLVER_STATUS_INVALID_ENUM,)
    # lda < n, vl >= vu, il < 1, il > iu, iu > n
    for bad in ((n - 1, VALUE, 0.0, 1.0, 0, 0), (n, VALUE, 1.0, 1.0, 0, 0), (n, INDEX, 0.0, 0.0, 0, 2),
                (n, INDEX, 0.0, 0.0, 3, 2), (n, INDEX, 0.0, 0.0, 1, n + 1)):
        lda, rng, vl, vu, il, iu = bad
        assert ev(handle, VECTOR, rng, LOWER, n, dA, lda, vl, vu, il, iu, nev, dW, None, 0, info) == (
            S.HIPSOLVER_STATUS_INVALID_VALUE,), bad
    assert ev(handle, VECTOR, ALL, LOWER, n, dA, n, 0.0, 0.0, 0, 0, None, dW, work, 1 << 16, info) == (
        S.HIPSOLVER_STATUS_INVALID_VALUE,)  # the _inplace routines' host nev
    assert gv(handle, one, VECTOR, ALL, LOWER, n, dA, n, dB, n, 0.0, 0.0, 0, 0, None, dW, None, 0, info) == (
        S.HIPSOLVER_STATUS_INVALID_VALUE,)
    assert gv(handle, one, VECTOR, ALL, LOWER, n, dA, n, dB, n - 1, 0.0, 0.0, 0, 0, nev, dW, None, 0, info) == (
        S.HIPSOLVER_STATUS_INVALID_VALUE,)  # ldb < n
    assert gv(handle, one, VECTOR, ALL, LOWER, n, dA, n, None, n, 0.0, 0.0, 0, 0, nev, dW, None, 0, info) == (
        S.HIPSOLVER_STATUS_INVALID_VALUE,)  # B NULL
    np.testing.assert_array_equal(host(dA, (n, n), np.float64), a)  # nothing was written
    assert (nev.value, host(info, (1,), np.int32)[0]) == (-9, -7)
    # hip-python's Cython: enums only, C ints and floats converted on entry (before the handle is looked at)
    with pytest.raises(TypeError, match="_hipsolverEigRange_t__Base"):
        ev(handle, VECTOR, 221, LOWER, n, dA, n, 0.0, 0.0, 0, 0, nev, dW, None, 0, info)
    with pytest.raises(OverflowError, match="'iu'"):
        evq(None, VECTOR, INDEX, LOWER, n, dA, n, 0.0, 0.0, 1, 2**31, nev, dW)
    with pytest.raises(TypeError, match="'vl'"):
        evq(None, VECTOR, VALUE, LOWER, n, dA, n, "0", 1.0, 0, 0, nev, dW)
    with pytest.raises(TypeError, match="'vu'"):
        ev(None, VECTOR, VALUE, LOWER, n, dA, n, 0.0, None, 0, 0, nev, dW, None, 0, info)


# --- sygvj/hegvj -------------------------------------------------------------------------------------------------

SYGVJ_CASES = [(1, VECTOR, LOWER, "work"), (2, VECTOR, UPPER, "managed"), (3, NOVECTOR, LOWER, "keywords"),
               (1, VECTOR, UPPER, "ctypes")]


@pytest.mark.parametrize("letter", "SDCZ")
@pytest.mark.parametrize("case", range(len(SYGVJ_CASES)))
def test_sygvj(handle: Any, roc: Any, dev: Dev, letter: str, case: int) -> None:
    itype, jobz, uplo, how = SYGVJ_CASES[case]
    n = 5
    a, b = hermitian(letter, n, 20 + case), hpd(letter, n, 30 + case)
    real, tol, sweeps = REAL[letter], (1e-12 if letter in "DZ" else 1e-6), 40
    params = dev.syevj_info(tol, sweeps)
    values = {"itype": ITYPE[itype], "jobz": jobz, "uplo": uplo, "n": n, "A": dev.put(padded(a, n + 1)), "lda": n + 1,
              "B": dev.put(b), "ldb": n, "W": dev.put(np.zeros(n, real)), "devInfo": dev.info(), "params": params}
    lwork = query_and_call(handle, dev, letter, "sygvj", values, how)
    residual = check(hipsolver.hipsolverXsyevjGetResidual(handle, params))
    done = check(hipsolver.hipsolverXsyevjGetSweeps(handle, params))
    # the reference: rocmath.solver's sygvj with the parameters' tolerance and sweeps
    roc_args = (ROC[ITYPE[itype]], ROC[jobz], ROC[uplo], n)
    assert lwork == roc_size(roc, routine(letter, "sygvj"), *roc_args, None, n + 1, None, n, tol, None, sweeps, None,
                             None, None)
    rA, rB, rW, rinfo = dev.put(padded(a, n + 1)), dev.put(b), dev.put(np.zeros(n, real)), dev.info()
    rres, rsweeps = dev.put(np.zeros(1, real)), dev.info()
    routine(letter, "sygvj")(roc, *roc_args, int(rA), n + 1, int(rB), n, tol, int(rres), sweeps, int(rsweeps),
                             int(rW), int(rinfo))
    for mine, ref, shape, dtype in ((values["A"], rA, (n + 1, n), DTYPE[letter]), (values["B"], rB, (n, n),
                                                                                   DTYPE[letter]),
                                    (values["W"], rW, (n,), real), (values["devInfo"], rinfo, (1,), np.int32)):
        assert host(mine, shape, dtype).tobytes() == host(ref, shape, dtype).tobytes()
    assert residual == float(host(rres, (1,), real)[0]) and done == host(rsweeps, (1,), np.int32)[0] > 0
    assert host(values["devInfo"], (1,), np.int32)[0] == 0
    w = host(values["W"], (n,), real)
    want = spectrum(letter, a, b, itype)
    np.testing.assert_allclose(w, want, rtol=10 * TOL[letter], atol=10 * TOL[letter] * np.abs(want).max())
    if jobz == VECTOR:
        residual_ok(letter, a, b, itype, want, host(values["A"], (n + 1, n), DTYPE[letter])[:n])


def test_sygvj_manages_a_larger_workspace(dev: Dev) -> None:
    """Without a work buffer hipSOLVER sizes the handle's workspace lwork + sizeof(float) * n (every precision)."""
    n = 4
    h = check(hipsolver.hipsolverCreate())
    try:
        params = dev.syevj_info(1e-12, 30)
        args = (ITYPE[1], VECTOR, LOWER, n, dev.put(hermitian("Z", n, 1)), n, dev.put(hpd("Z", n, 2)), n,
                dev.put(np.zeros(n)))
        lwork = check(hipsolver.hipsolverZhegvj_bufferSize(h, *args, params))
        check(hipsolver.hipsolverZhegvj(h, *args, None, 0, dev.info(), params))
        # rocBLAS rounds the size it allocates to 64 bytes: the query's lwork alone would stay lwork here
        assert lwork % 64 == 0 and hipsolver._handle(h).get_device_memory_size() == rounded(lwork + 4 * n) > lwork
    finally:
        check(hipsolver.hipsolverDestroy(h))


def test_sygvj_statuses(handle: Any, dev: Dev) -> None:
    n = 4
    a = hermitian("S", n, 5)
    dA, dB, dW, info = dev.put(a), dev.put(hpd("S", n, 6)), dev.put(np.zeros(n, np.float32)), dev.info()
    p = dev.syevj_info(0.0, 20)
    head = (ITYPE[1], VECTOR, LOWER, n, dA, n, dB, n, dW)
    full = (ITYPE[1], VECTOR, FULL, n, dA, n, dB, n, dW)
    q, f = hipsolver.hipsolverSsygvj_bufferSize, hipsolver.hipsolverSsygvj
    # hipSOLVER's order: the handle, (the query's lwork,) the parameters object, then the enums
    assert q(None, *head, None) == (S.HIPSOLVER_STATUS_NOT_INITIALIZED, None)
    assert q(handle, *full, None) == (S.HIPSOLVER_STATUS_INVALID_VALUE, None)
    assert q(handle, *full, p) == (S.HIPSOLVER_STATUS_INVALID_ENUM, None)
    assert q(handle, *head, None, p) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)  # lwork NULL
    assert f(None, *full, None, 0, info, None) == (S.HIPSOLVER_STATUS_NOT_INITIALIZED,)
    assert f(handle, *full, None, 0, info, None) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)
    assert f(handle, *full, None, 0, info, p) == (S.HIPSOLVER_STATUS_INVALID_ENUM,)
    assert f(handle, ITYPE[1], VECTOR, LOWER, n, dA, n, dB, n - 1, dW, None, 0, info, p) == (
        S.HIPSOLVER_STATUS_INVALID_VALUE,)  # ldb < n
    assert f(handle, *head, None, 0, None, p) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)  # devInfo NULL
    np.testing.assert_array_equal(host(dA, (n, n), np.float32), a)
    assert host(info, (1,), np.int32)[0] == -7
    with pytest.raises(TypeError, match="_hipsolverEigType_t__Base"):
        f(handle, 211, VECTOR, LOWER, n, dA, n, dB, n, dW, None, 0, info, p)


# --- sytrf ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("letter", "SDCZ")
@pytest.mark.parametrize("uplo", [UPPER, LOWER], ids=["upper", "lower"])
def test_sytrf(handle: Any, roc: Any, dev: Dev, letter: str, uplo: Any) -> None:
    n, lda = 7, 9
    for i, how in enumerate(HOWS):
        a = rand(letter, n, n, seed=40 + i)
        a = np.asfortranarray(a + a.T)  # symmetric (complex symmetric: not Hermitian)
        values = {"uplo": uplo, "n": n, "A": dev.put(padded(a, lda)), "lda": lda,
                  "ipiv": dev.put(np.zeros(n, np.int32)), "devInfo": dev.info()}
        lwork = query_and_call(handle, dev, letter, "sytrf", values, how)
        # the query asks for the upper factorization's size
        assert lwork == roc_size(roc, routine(letter, "sytrf"), solver.Fill.upper, n, None, lda, None, None)
        rA, ripiv, rinfo = dev.put(padded(a, lda)), dev.put(np.zeros(n, np.int32)), dev.info()
        routine(letter, "sytrf")(roc, ROC[uplo], n, int(rA), lda, int(ripiv), int(rinfo))
        got_a, got_piv = host(values["A"], (lda, n), DTYPE[letter]), host(values["ipiv"], (n,), np.int32)
        assert got_a.tobytes() == host(rA, (lda, n), DTYPE[letter]).tobytes()
        assert got_piv.tobytes() == host(ripiv, (n,), np.int32).tobytes()
        assert host(values["devInfo"], (1,), np.int32)[0] == host(rinfo, (1,), np.int32)[0] == 0
        # LAPACK's ?sytrf: the same factors and pivots
        lower = int(uplo == LOWER)
        ldu, piv, info = getattr(lapack, f"{letter.lower()}sytrf")(a, lower=lower)
        assert info == 0
        np.testing.assert_array_equal(got_piv, piv)
        tri = np.tril if lower else np.triu
        np.testing.assert_allclose(tri(got_a[:n]), tri(ldu), rtol=TOL[letter], atol=TOL[letter])
        np.testing.assert_array_equal(got_a[n:], 5)


def test_sytrf_statuses(handle: Any, dev: Dev) -> None:
    n = 4
    a = np.zeros((n, n))
    dA, ipiv, info = dev.put(a), dev.put(np.zeros(n, np.int32)), dev.info()
    q, f = hipsolver.hipsolverDsytrf_bufferSize, hipsolver.hipsolverDsytrf
    assert q(None, n, dA, n) == (S.HIPSOLVER_STATUS_NOT_INITIALIZED, None)
    assert q(handle, n, dA, n, None) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)
    assert q(handle, n, dA, n - 1) == (S.HIPSOLVER_STATUS_INVALID_VALUE, None)
    assert f(None, FULL, n, dA, n, ipiv, None, 0, info) == (S.HIPSOLVER_STATUS_NOT_INITIALIZED,)
    assert f(handle, FULL, n, dA, n, ipiv, None, 0, info) == (S.HIPSOLVER_STATUS_INVALID_ENUM,)
    assert f(handle, LOWER, n, dA, n - 1, ipiv, None, 0, info) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)
    assert f(handle, LOWER, n, dA, n, None, None, 0, info) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)  # ipiv NULL
    assert host(info, (1,), np.int32)[0] == -7
    with pytest.raises(OverflowError, match="'lda'"):
        f(handle, LOWER, n, dA, 2**31, ipiv, None, 0, info)
    # rocSOLVER's own info (not zeroed by hipSOLVER): a zero matrix has a zero pivot at the first step
    check(f(handle, LOWER, n, dA, n, ipiv, None, 0, info))
    assert host(info, (1,), np.int32)[0] == 1
    check(f(handle, UPPER, 0, None, 1, None, None, 0, info))
    assert host(info, (1,), np.int32)[0] == 0


# --- the names and the compatibility twins ----------------------------------------------------------------------------


def test_parameter_names_are_hip_pythons() -> None:
    import inspect

    def names(f: Any) -> str:
        return " ".join(inspect.signature(f).parameters)

    assert names(hipsolver.hipsolverSsyevdx) == "handle jobz range uplo n A lda vl vu il iu nev W work lwork devInfo"
    assert names(hipsolver.hipsolverZheevdx_bufferSize) == "handle jobz range uplo n A lda vl vu il iu nev W lwork"
    assert names(hipsolver.hipsolverChegvdx) == ("handle itype jobz range uplo n A lda B ldb vl vu il iu nev W work "
                                                 "lwork devInfo")
    assert names(hipsolver.hipsolverDsygvdx_bufferSize) == ("handle itype jobz range uplo n A lda B ldb vl vu il iu "
                                                            "nev W lwork")
    assert names(hipsolver.hipsolverZhegvj) == "handle itype jobz uplo n A lda B ldb W work lwork devInfo params"
    assert names(hipsolver.hipsolverSsygvj_bufferSize) == "handle itype jobz uplo n A lda B ldb W lwork params"
    assert names(hipsolver.hipsolverCsytrf) == "handle uplo n A lda ipiv work lwork devInfo"
    assert names(hipsolver.hipsolverDsytrf_bufferSize) == "handle n A lda lwork"
    for regular in ("hipsolverSsyevdx", "hipsolverZhegvdx_bufferSize", "hipsolverDsygvj", "hipsolverCsytrf"):
        dn = "hipsolverDn" + regular.removeprefix("hipsolver")
        assert names(getattr(hipsolver, dn)) == names(getattr(hipsolver, regular))
        assert hipsolver.DN_MANIFEST[dn] == regular and dn not in hipsolver.DN_UNAVAILABLE
    for name in ("hipsolverCsyevdx", "hipsolverSheevdx", "hipsolverZsygvj", "hipsolverDhegvdx"):
        assert not hasattr(hipsolver, name) and name not in hipsolver.MANIFEST


@pytest.mark.parametrize("family,letter", [("syevdx", "Z"), ("sygvdx", "S"), ("sygvj", "D"), ("sytrf", "C")])
def test_dn_twins(handle: Any, roc: Any, dev: Dev, family: str, letter: str) -> None:
    """hipsolverDn<P><op> (and its query) call the regular function unchanged: the same results, bit for bit."""
    if family in ("syevdx", "sygvdx"):
        results = [run_eigx(handle, roc, dev, letter, family, VECTOR, INDEX, UPPER, 2, "keywords", "ctypes", dn=dn)
                   for dn in (False, True)]
        for key in ("nev", "info", "A", "W", "lwork"):
            assert np.asarray(results[0][key]).tobytes() == np.asarray(results[1][key]).tobytes(), key
        return
    n = 5
    a = hermitian(letter, n, 60) if family == "sygvj" else rand(letter, n, n, seed=61)
    a = np.asfortranarray(a + a.T) if family == "sytrf" else a
    outs = []
    for dn in (False, True):
        values: dict[str, Any] = {"uplo": LOWER, "n": n, "A": dev.put(a), "lda": n, "devInfo": dev.info()}
        if family == "sygvj":
            values.update(itype=ITYPE[1], jobz=VECTOR, B=dev.put(hpd(letter, n, 62)), ldb=n,
                          W=dev.put(np.zeros(n, REAL[letter])), params=dev.syevj_info(1e-12, 30))
        else:
            values["ipiv"] = dev.put(np.zeros(n, np.int32))
        lwork = query_and_call(handle, dev, letter, family, values, "work", dn)
        shapes = {"A": ((n, n), DTYPE[letter]), "B": ((n, n), DTYPE[letter]), "W": ((n,), REAL[letter]),
                  "ipiv": ((n,), np.int32), "devInfo": ((1,), np.int32)}
        outs.append([lwork, *(host(values[k], *shapes[k]).tobytes() for k in shapes if k in values)])
    assert outs[0] == outs[1]
