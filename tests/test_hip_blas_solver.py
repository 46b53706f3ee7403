"""rocmath.hip.hipblas's solver functions (getrf, getrs, getriBatched, geqrf, gels in every flavour and precision),
cross-checked with SciPy, and hipBLAS's own argument checks (the host ``info``) in its order."""

from __future__ import annotations

import ctypes
import inspect

import numpy as np
import pytest
import scipy.linalg as sl
from hip_util import check

from rocmath.hip import hip, hipblas
from rocmath.hip._hipblas_solver import FAMILIES, names
from rocmath.memory import address_space

S = hipblas.hipblasStatus_t
OP = hipblas.hipblasOperation_t
K = hip.hipMemcpyKind
SENTINEL = 77.0
DTYPES = {"S": np.float32, "D": np.float64, "C": np.complex64, "Z": np.complex128}
TOL = {"S": 2e-4, "D": 1e-11, "C": 2e-4, "Z": 1e-11}
NAMES = names()


@pytest.fixture(scope="module")
def handle():
    h = check(hipblas.hipblasCreate())
    yield h
    check(hipblas.hipblasDestroy(h))


class Memory:
    """hipMalloc'd device memory of one test, freed at its end."""

    def __init__(self):
        self.ptrs = []

    def upload(self, a: np.ndarray):
        a = np.ascontiguousarray(a)
        d = check(hip.hipMalloc(max(a.nbytes, 1)))
        self.ptrs.append(d)
        check(hip.hipMemcpy(d, a, a.nbytes, K.hipMemcpyHostToDevice))
        return d

    def download(self, d, like: np.ndarray) -> np.ndarray:
        out = np.empty_like(like)
        check(hip.hipMemcpy(out, d, out.nbytes, K.hipMemcpyDeviceToHost))
        return out

    def free(self):
        for d in self.ptrs:
            check(hip.hipFree(d))
        self.ptrs = []


@pytest.fixture
def mem():
    m = Memory()
    yield m
    m.free()


class Batch:
    """``count`` column-major ``rows x cols`` operands (leading dimension ``ld``) plus one spare entry past the
    batch, laid out for a flavour: ``plain`` (the first), ``strided`` (one allocation, ``stride`` apart, a gap of
    sentinels between entries), ``pointers`` (one allocation per entry and a device array of their addresses),
    ``packed`` (one allocation, ``rows * cols`` apart: hipBLAS's Batched ipiv).  Everything not an operand holds
    :data:`SENTINEL`."""

    def __init__(self, mem: Memory, layout: str, mats: list[np.ndarray], ld: int | None = None, gap: int = 3):
        self.mem, self.layout, self.mats = mem, layout, mats
        self.rows, self.cols = mats[0].shape
        self.ld = ld if ld is not None else self.rows
        self.stride = self.rows * self.cols if layout == "packed" else self.ld * self.cols + gap
        host = np.full((len(mats), self.stride), SENTINEL, dtype=mats[0].dtype)
        for b, m in enumerate(mats):
            view = host[b, :self.ld * self.cols].reshape(self.cols, self.ld).T
            view[:self.rows] = m
        self.host = host
        if layout == "pointers":
            self.entries = [mem.upload(row) for row in host]
            self.ptr = mem.upload(np.array([int(e) for e in self.entries], np.uint64))
        else:
            self.whole = mem.upload(host if layout != "plain" else host[0])
            self.ptr = self.whole

    def read(self) -> np.ndarray:
        if self.layout == "pointers":
            return np.stack([self.mem.download(e, self.host[b]) for b, e in enumerate(self.entries)])
        if self.layout == "plain":
            return self.mem.download(self.whole, self.host[:1])
        return self.mem.download(self.whole, self.host)

    def result(self) -> list[np.ndarray]:
        """Each entry's operand after the call; asserts every byte outside the batch's operands is untouched."""
        got = self.read()
        outside = np.ones(got.shape, bool)
        out = []
        for b in range(len(got) if self.layout == "plain" else len(got) - 1):
            inside = outside[b, :self.ld * self.cols].reshape(self.cols, self.ld).T
            inside[:self.rows] = False
            out.append(got[b, :self.ld * self.cols].reshape(self.cols, self.ld).T[:self.rows].copy())
        np.testing.assert_array_equal(got[outside], self.host[:len(got)][outside])
        return out


def _rng_matrix(rng, shape, p):
    a = rng.standard_normal(shape)
    if p in "CZ":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(DTYPES[p])


def _flavour(family: str) -> str:
    return "strided" if family.endswith("StridedBatched") else "pointers" if family.endswith("Batched") else "plain"


def _call(name: str, **kwargs):
    return getattr(hipblas, name)(**kwargs)


def _nopivot_lu(a: np.ndarray) -> np.ndarray:
    lu = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    for j in range(len(lu) - 1):
        lu[j + 1:, j] /= lu[j, j]
        lu[j + 1:, j + 1:] -= np.outer(lu[j + 1:, j], lu[j, j + 1:])
    return lu


# --- the names ------------------------------------------------------------------------------------------------


def test_every_hip_python_solver_name_is_bound_with_its_parameters():
    assert len(NAMES) == 78 and len(FAMILIES) == 13
    for name, (family, _) in NAMES.items():
        fn = getattr(hipblas, name)
        assert name in hipblas.__all__ and name in dir(hipblas)
        assert list(inspect.signature(fn).parameters) == ["handle", *FAMILIES[family].params.split()]
    assert list(inspect.signature(hipblas.hipblasSgetrsStridedBatched).parameters) == [
        "handle", "trans", "n", "nrhs", "A", "lda", "strideA", "ipiv", "strideP", "B", "ldb", "strideB", "info",
        "batchCount"]
    assert list(inspect.signature(hipblas.hipblasZgeqrfStridedBatched_v2).parameters) == [
        "handle", "m", "n", "A", "lda", "strideA", "ipiv", "strideP", "info", "batchCount"]
    assert list(inspect.signature(hipblas.hipblasCgelsBatched).parameters) == [
        "handle", "trans", "m", "n", "nrhs", "A", "lda", "B", "ldb", "info", "deviceInfo", "batchCount"]
    assert {"hipblasSgetriBatched", "hipblasZgetriBatched_v2", "hipblasDgels", "hipblasCgetrf_v2"} <= set(NAMES)
    assert not {"hipblasSgetri", "hipblasSgetriStridedBatched", "hipblasSgetrf_v2", "hipblasSgetrf_64"} & set(NAMES)


# --- results --------------------------------------------------------------------------------------------------

BATCH = 2


def _case(name: str):
    family, p = NAMES[name]
    return family, p, _flavour(family), (1 if _flavour(family) == "plain" else BATCH)


def _info(mem: Memory, count: int) -> Batch:
    return Batch(mem, "strided" if count > 1 else "plain", [np.zeros((1, 1), np.int32)] * (count + 1), gap=0)


def _counted(flavour: str, count: int) -> dict:
    return {} if flavour == "plain" else {"batchCount": count}


GETRF = [n for n, (f, _) in NAMES.items() if f.startswith("getrf")]


@pytest.mark.parametrize("pivot", [True, False], ids=["pivot", "npvt"])
@pytest.mark.parametrize("name", GETRF)
def test_getrf_matches_scipy(handle, mem, name, pivot):
    _, p, flavour, count = _case(name)
    n, lda = 4, 6
    rng = np.random.default_rng(len(name))
    mats = [_rng_matrix(rng, (n, n), p) + (0 if pivot else 4 * n * np.eye(n, dtype=DTYPES[p]))
            for _ in range(count + 1)]
    A = Batch(mem, flavour, mats, ld=lda)
    ipiv = Batch(mem, "packed" if flavour == "pointers" else flavour, [np.zeros((n, 1), np.int32)] * (count + 1))
    info = _info(mem, count)
    strides = {"strideA": A.stride, "strideP": ipiv.stride} if flavour == "strided" else {}
    check(_call(name, handle=handle, n=n, A=A.ptr, lda=lda, ipiv=ipiv.ptr if pivot else None, info=info.ptr,
                **strides, **_counted(flavour, count)))
    factors = A.result()
    pivots = ipiv.result()
    assert all(i[0, 0] == 0 for i in info.result())
    for b in range(count):
        if pivot:
            lu, piv = sl.lu_factor(mats[b].astype(np.complex128 if p in "CZ" else np.float64))
            np.testing.assert_array_equal(pivots[b][:, 0], piv + 1)
        else:
            lu = _nopivot_lu(mats[b])
            assert (pivots[b] == 0).all()  # NULL ipiv: the no-pivoting routine, the array untouched
        np.testing.assert_allclose(factors[b], lu, rtol=TOL[p] * 10, atol=TOL[p] * 10)


def test_getrf_reports_the_first_zero_pivot_in_device_info(handle, mem):
    a = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 0.0, 1.0]])  # column 2 eliminates to zero
    A = Batch(mem, "strided", [a, np.eye(3), np.eye(3)])
    ipiv, info = Batch(mem, "strided", [np.zeros((3, 1), np.int32)] * 3), _info(mem, 2)
    check(hipblas.hipblasDgetrfStridedBatched(handle, 3, A.ptr, 3, A.stride, ipiv.ptr, ipiv.stride, info.ptr, 2))
    assert [i[0, 0] for i in info.result()] == [2, 0]


def _lu_operands(mem, flavour, mats, p, pivot=True):
    """The LU factors (SciPy's, or without pivoting) and 1-based pivots of ``mats`` on the device."""
    lus, pivs = [], []
    for a in mats:
        if pivot:
            lu, piv = sl.lu_factor(a.astype(np.complex128 if p in "CZ" else np.float64))
            pivs.append((piv + 1).astype(np.int32)[:, None])
        else:
            lu = _nopivot_lu(a)
            pivs.append(np.zeros((len(a), 1), np.int32))
        lus.append(lu.astype(DTYPES[p]))
    return lus, Batch(mem, "packed" if flavour == "pointers" else flavour, pivs)


def _op(a: np.ndarray, trans) -> np.ndarray:
    return a if trans == OP.HIPBLAS_OP_N else a.T if trans == OP.HIPBLAS_OP_T else a.conj().T


@pytest.mark.parametrize("trans", list(OP), ids=lambda t: t.name[-1])
@pytest.mark.parametrize("name", [n for n, (f, _) in NAMES.items() if f.startswith("getrs")])
def test_getrs_solves_op_a(handle, mem, name, trans):
    _, p, flavour, count = _case(name)
    n, nrhs, lda, ldb = 3, 2, 5, 4
    rng = np.random.default_rng(len(name) + int(trans))
    mats = [_rng_matrix(rng, (n, n), p) + 2 * np.eye(n, dtype=DTYPES[p]) for _ in range(count + 1)]
    rhs = [_rng_matrix(rng, (n, nrhs), p) for _ in range(count + 1)]
    lus, ipiv = _lu_operands(mem, flavour, mats, p)
    A, B = Batch(mem, flavour, lus, ld=lda), Batch(mem, flavour, rhs, ld=ldb)
    info = ctypes.c_int(99)
    kw = dict(handle=handle, trans=trans, n=n, nrhs=nrhs, A=A.ptr, lda=lda, ipiv=ipiv.ptr, B=B.ptr, ldb=ldb,
              info=info, **_counted(flavour, count))
    if flavour == "strided":
        kw.update(strideA=A.stride, strideP=ipiv.stride, strideB=B.stride)
    check(_call(name, **kw))
    assert info.value == 0
    A.result()
    for b, x in enumerate(B.result()):
        np.testing.assert_allclose(_op(mats[b], trans) @ x, rhs[b], rtol=TOL[p] * 10, atol=TOL[p] * 10)


@pytest.mark.parametrize("pivot", [True, False], ids=["pivot", "npvt"])
@pytest.mark.parametrize("name", [n for n, (f, _) in NAMES.items() if f == "getriBatched"])
def test_getri_batched_inverts_out_of_place(handle, mem, name, pivot):
    _, p, flavour, count = _case(name)
    n, lda, ldc = 3, 4, 5
    rng = np.random.default_rng(len(name))
    mats = [_rng_matrix(rng, (n, n), p) + (4 * n if not pivot else 1) * np.eye(n, dtype=DTYPES[p])
            for _ in range(count + 1)]
    lus, ipiv = _lu_operands(mem, flavour, mats, p, pivot)
    A = Batch(mem, flavour, lus, ld=lda)
    C = Batch(mem, flavour, [np.zeros((n, n), DTYPES[p])] * (count + 1), ld=ldc)
    info = _info(mem, count)
    check(_call(name, handle=handle, n=n, A=A.ptr, lda=lda, ipiv=ipiv.ptr if pivot else 0, C=C.ptr, ldc=ldc,
                info=info.ptr, batchCount=count))
    assert all(i[0, 0] == 0 for i in info.result())
    for b, (lu, inv) in enumerate(zip(A.result(), C.result(), strict=True)):
        np.testing.assert_array_equal(lu, lus[b])  # out of place: A is input only
        np.testing.assert_allclose(inv @ mats[b], np.eye(n), atol=TOL[p] * 20)


def _q_times_r(out: np.ndarray, tau: np.ndarray) -> np.ndarray:
    m, n = out.shape
    q = np.eye(m, dtype=np.complex128)
    for j in range(min(m, n)):
        v = np.zeros(m, np.complex128)
        v[j], v[j + 1:] = 1.0, out[j + 1:, j]
        q = q @ (np.eye(m) - tau[j] * np.outer(v, v.conj()))
    return q @ np.triu(out)


@pytest.mark.parametrize("shape", [(5, 3), (3, 4)], ids=["tall", "wide"])
@pytest.mark.parametrize("name", [n for n, (f, _) in NAMES.items() if f.startswith("geqrf")])
def test_geqrf_reconstructs_a(handle, mem, name, shape):
    _, p, flavour, count = _case(name)
    m, n = shape
    lda, k = m + 2, min(shape)
    rng = np.random.default_rng(len(name) + m)
    mats = [_rng_matrix(rng, (m, n), p) for _ in range(count + 1)]
    A = Batch(mem, flavour, mats, ld=lda)
    tau = Batch(mem, flavour, [np.zeros((k, 1), DTYPES[p])] * (count + 1))  # geqrfBatched: pointers to tau
    info = ctypes.c_int(99)
    strides = {"strideA": A.stride, "strideP": tau.stride} if flavour == "strided" else {}
    live = address_space.live_count
    check(_call(name, handle=handle, m=m, n=n, A=A.ptr, lda=lda, ipiv=tau.ptr, info=info, **strides,
                **_counted(flavour, count)))
    check(hip.hipDeviceSynchronize())
    assert info.value == 0 and address_space.live_count == live  # geqrfBatched's scratch is gone
    for b, (out, t) in enumerate(zip(A.result(), tau.result(), strict=True)):
        assert np.linalg.norm(mats[b] - _q_times_r(out, t[:, 0])) <= TOL[p] * 10 * np.linalg.norm(mats[b])
        np.testing.assert_allclose(np.abs(np.diag(out)), np.abs(np.diag(sl.qr(mats[b], mode="r")[0])),
                                   rtol=TOL[p] * 10)


GELS_CASES = {"over": ((5, 3), False), "under": ((3, 5), False), "trans": ((3, 5), True)}


@pytest.mark.parametrize("case", list(GELS_CASES))
@pytest.mark.parametrize("name", [n for n, (f, _) in NAMES.items() if f.startswith("gels")])
def test_gels_least_squares(handle, mem, name, case):
    _, p, flavour, count = _case(name)
    (m, n), transposed = GELS_CASES[case]
    trans = OP.HIPBLAS_OP_N if not transposed else OP.HIPBLAS_OP_C if p in "CZ" else OP.HIPBLAS_OP_T
    nrhs, lda, ldb = 2, m + 1, max(m, n) + 2
    rng = np.random.default_rng(len(name) + m)
    mats = [_rng_matrix(rng, (m, n), p) for _ in range(count + 1)]
    rows, cols = _op(mats[0], trans).shape  # op(A) X = B: B has rows, X cols (both within max(m, n))
    rhs = [np.vstack([_rng_matrix(rng, (rows, nrhs), p), np.zeros((max(m, n) - rows, nrhs), DTYPES[p])])
           for _ in range(count + 1)]
    A, B = Batch(mem, flavour, mats, ld=lda), Batch(mem, flavour, rhs, ld=ldb)
    info, dev_info = ctypes.c_int(99), _info(mem, count)
    kw = dict(handle=handle, trans=trans, m=m, n=n, nrhs=nrhs, A=A.ptr, lda=lda, B=B.ptr, ldb=ldb, info=info,
              deviceInfo=dev_info.ptr, **_counted(flavour, count))
    if flavour == "strided":
        kw.update(strideA=A.stride, strideB=B.stride)
    check(_call(name, **kw))
    assert info.value == 0 and all(i[0, 0] == 0 for i in dev_info.result())
    A.result()
    for b, x in enumerate(B.result()):
        op_a = _op(mats[b], trans).astype(np.complex128)
        want = np.linalg.lstsq(op_a, rhs[b][:rows].astype(np.complex128), rcond=None)[0]  # min norm if under
        np.testing.assert_allclose(x[:cols], want, rtol=TOL[p] * 50, atol=TOL[p] * 50)


# --- hipBLAS's argument checks: the host info, in hipBLAS's order --------------------------------------------


def _valid(mem: Memory, name: str) -> dict:
    """A valid call of ``name`` (double or double complex, 2 x 2 / 2 entries) by hip-python's keywords."""
    family, p, flavour, count = _case(name)
    dt = DTYPES[p]
    eye = np.eye(2, dtype=dt)
    mat = Batch(mem, flavour, [eye] * (count + 1)).ptr
    vec = Batch(mem, "packed" if flavour == "pointers" and not family.startswith("geqrf") else flavour,
                [np.ones((2, 1), np.int32 if family.startswith("getr") else dt)] * (count + 1)).ptr
    values = {"trans": OP.HIPBLAS_OP_N, "n": 2, "m": 2, "nrhs": 2, "A": mat, "lda": 2, "ipiv": vec, "B": mat,
              "ldb": 2, "C": Batch(mem, flavour, [eye] * (count + 1)).ptr, "ldc": 2, "info": ctypes.c_int(99),
              "deviceInfo": _info(mem, count).ptr, "batchCount": count, "strideA": 7, "strideP": 2, "strideB": 7}
    return {"handle": None, **{k: values[k] for k in FAMILIES[family].params.split()}}


OK, BAD = S.HIPBLAS_STATUS_SUCCESS, S.HIPBLAS_STATUS_INVALID_VALUE
#: (function, overrides, hipBLAS's info, the status: rocSOLVER's, as hipBLAS calls it whatever info says)
CHECKS = [
    # getrs: trans (always one of N, T, C) -> n -> nrhs -> A -> lda -> ipiv -> B -> ldb -> batchCount
    ("hipblasDgetrs", {"n": -1, "lda": 0}, -2, BAD),
    ("hipblasDgetrs", {"nrhs": -1, "A": None}, -3, BAD),
    ("hipblasDgetrs", {"A": None, "lda": 1}, -4, BAD),
    ("hipblasDgetrs", {"lda": 1, "ipiv": None}, -5, BAD),
    ("hipblasDgetrs", {"n": 0, "lda": 0}, -5, OK),  # hipBLAS: lda >= max(1, n); rocSOLVER: lda >= n
    ("hipblasDgetrs", {"ipiv": None, "B": None}, -6, BAD),
    ("hipblasDgetrs", {"B": None, "ldb": 1}, -7, BAD),
    ("hipblasDgetrs", {"nrhs": 0, "B": None}, 0, OK),
    ("hipblasDgetrs", {"ldb": 1}, -8, BAD),
    ("hipblasDgetrs", {"n": 0, "lda": 1, "ldb": 0}, -8, OK),
    ("hipblasZgetrsBatched_v2", {"ldb": 1, "batchCount": -1}, -8, BAD),
    ("hipblasZgetrsBatched", {"batchCount": -1}, -10, BAD),
    ("hipblasZgetrsBatched", {"batchCount": 0, "A": None}, -4, BAD),
    ("hipblasSgetrsStridedBatched", {"ipiv": None}, -7, BAD),
    ("hipblasSgetrsStridedBatched", {"B": None}, -9, BAD),
    ("hipblasSgetrsStridedBatched", {"ldb": 1}, -10, BAD),
    ("hipblasSgetrsStridedBatched", {"batchCount": -1}, -13, BAD),
    # geqrf: m -> n -> A -> lda -> tau (ipiv) -> batchCount
    ("hipblasDgeqrf", {"m": -1, "n": -1}, -1, BAD),
    ("hipblasDgeqrf", {"n": -1, "A": None}, -2, BAD),
    ("hipblasDgeqrf", {"A": None, "lda": 1}, -3, BAD),
    ("hipblasDgeqrf", {"lda": 1, "ipiv": None}, -4, BAD),
    ("hipblasDgeqrf", {"m": 0, "lda": 0}, -4, OK),  # hipBLAS: lda >= max(1, m); rocSOLVER: lda >= m
    ("hipblasDgeqrf", {"ipiv": None}, -5, BAD),
    ("hipblasDgeqrf", {"n": 0, "A": None, "ipiv": None}, 0, OK),
    ("hipblasCgeqrfBatched", {"ipiv": None}, -5, BAD),
    ("hipblasCgeqrfBatched", {"batchCount": -1}, -7, BAD),
    ("hipblasCgeqrfBatched", {"batchCount": 0, "ipiv": None}, -5, BAD),  # rocSOLVER checks tau before counting
    ("hipblasCgeqrfBatched", {"m": 0, "ipiv": None}, 0, OK),
    ("hipblasZgeqrfStridedBatched_v2", {"ipiv": None}, -6, BAD),
    ("hipblasZgeqrfStridedBatched_v2", {"batchCount": -1}, -9, BAD),
    # gels: trans -> m -> n -> nrhs -> A -> lda -> B -> ldb -> deviceInfo -> batchCount
    ("hipblasDgels", {"trans": OP.HIPBLAS_OP_C, "m": -1}, -1, BAD),  # real: N or T
    ("hipblasZgels", {"trans": OP.HIPBLAS_OP_T}, -1, BAD),  # complex: N or C
    ("hipblasDgels", {"m": -1}, -2, BAD),
    ("hipblasDgels", {"n": -1}, -3, BAD),
    ("hipblasDgels", {"nrhs": -1}, -4, BAD),
    ("hipblasDgels", {"A": None}, -5, BAD),
    ("hipblasDgels", {"lda": 1}, -6, BAD),
    ("hipblasDgels", {"m": 0, "lda": 0, "ldb": 2}, 0, OK),  # hipBLAS: lda >= m only
    ("hipblasDgels", {"B": None}, -7, BAD),
    ("hipblasDgels", {"ldb": 1}, -8, BAD),
    ("hipblasDgels", {"deviceInfo": None}, -10, BAD),
    ("hipblasCgelsBatched", {"deviceInfo": None}, -10, BAD),
    ("hipblasCgelsBatched", {"deviceInfo": None, "batchCount": 0}, 0, OK),  # no entries: no deviceInfo needed
    ("hipblasCgelsBatched", {"batchCount": -1}, -11, BAD),
    ("hipblasSgelsStridedBatched", {"B": None}, -8, BAD),
    ("hipblasSgelsStridedBatched", {"ldb": 1}, -9, BAD),
    ("hipblasSgelsStridedBatched", {"deviceInfo": None}, -12, BAD),
    ("hipblasSgelsStridedBatched", {"batchCount": -1}, -13, BAD),
]


@pytest.mark.parametrize(("name", "changes", "code", "status"), CHECKS,
                         ids=[f"{c[0]}-{'-'.join(c[1])}" for c in CHECKS])
def test_hipblas_checks_write_host_info_then_rocsolver_decides(handle, mem, name, changes, code, status):
    kw = {**_valid(mem, name), "handle": handle, **changes}
    assert _call(name, **kw) == (status,)
    assert kw["info"].value == code


@pytest.mark.parametrize("name", [n for n, (f, _) in NAMES.items() if FAMILIES[f].checks and n[7] in "DZ"])
def test_null_info_is_invalid_value_before_the_handle(mem, name):
    kw = _valid(mem, name)
    assert _call(name, **{**kw, "info": None}) == (BAD,)
    assert _call(name, **{**kw, "info": ctypes.c_void_p(0)}) == (BAD,)
    # with an info, hipBLAS writes it, then rocSOLVER finds no handle
    assert _call(name, **kw) == (S.HIPBLAS_STATUS_NOT_INITIALIZED,) and kw["info"].value == 0


def test_host_info_forms_and_device_info_errors(handle, mem):
    kw = {**_valid(mem, "hipblasDgeqrf"), "handle": handle, "m": -1}
    for info in (np.full(1, 5, np.int32), ctypes.c_int(5)):
        assert _call("hipblasDgeqrf", **{**kw, "info": info}) == (BAD,)
        assert (info[0] if isinstance(info, np.ndarray) else info.value) == -1
    raw = ctypes.c_int(5)
    assert _call("hipblasDgeqrf", **{**kw, "info": ctypes.addressof(raw)}) == (BAD,) and raw.value == -1
    # a device info where hipBLAS writes a host int: refused (C would fault)
    assert _call("hipblasDgeqrf", **{**kw, "m": 2, "info": mem.upload(np.zeros(1, np.int32))}) == (BAD,)
    # getrf / getriBatched: rocSOLVER's own checks and statuses (their info is device memory)
    A, info = mem.upload(np.eye(2)), mem.upload(np.zeros(1, np.int32))
    assert hipblas.hipblasDgetrf(handle, -1, A, 2, None, info) == (BAD,)
    assert hipblas.hipblasDgetrf(handle, 2, A, 1, None, info) == (BAD,)
    assert hipblas.hipblasDgetrf(handle, 2, A, 2, None, None) == (BAD,)
    assert hipblas.hipblasDgetrf(None, 2, A, 2, None, info) == (S.HIPBLAS_STATUS_NOT_INITIALIZED,)
    assert hipblas.hipblasDgetrf(handle, 0, None, 0, None, None) == (BAD,)  # rocSOLVER always needs info
    assert hipblas.hipblasDgetriBatched(handle, 2, None, 2, None, None, 1, info, 1) == (BAD,)
    assert hipblas.hipblasDgetriBatched(handle, 2, None, 2, None, None, 2, info, 0) == (BAD,)  # n && !A
    assert hipblas.hipblasDgetriBatched(handle, 0, None, 0, None, None, 0, None, 0) == (OK,)
    gone = check(hipblas.hipblasCreate())
    check(hipblas.hipblasDestroy(gone))
    assert hipblas.hipblasDgetrf(gone, 2, A, 2, None, info) == (S.HIPBLAS_STATUS_NOT_INITIALIZED,)
    assert hipblas.hipblasDgeqrfBatched(gone, 2, 2, A, 2, A, ctypes.c_int(), 1) == (
        S.HIPBLAS_STATUS_NOT_INITIALIZED,)


def test_integers_convert_before_the_enum_and_the_checks(handle, mem):
    kw = {**_valid(mem, "hipblasSgetrsStridedBatched"), "handle": handle}
    with pytest.raises(OverflowError, match="'n'"):
        _call("hipblasSgetrsStridedBatched", **{**kw, "n": 2**31, "trans": 111, "info": None})
    with pytest.raises(OverflowError, match="'strideB'"):
        _call("hipblasSgetrsStridedBatched", **{**kw, "strideB": 2**63})
    with pytest.raises(TypeError, match="_hipblasOperation_t__Base"):
        _call("hipblasSgetrsStridedBatched", **{**kw, "trans": 111, "info": None})
    with pytest.raises(TypeError):
        _call("hipblasSgetrsStridedBatched", **{**kw, "lda": 2.0})
    assert kw["info"].value == 99  # nothing was checked
    info = ctypes.c_int(99)  # hipblasStride is int64_t
    assert _call("hipblasSgetrsStridedBatched", **{**kw, "strideB": 2**40, "batchCount": 0, "info": info}) == (OK,)
    assert info.value == 0


def test_positional_and_keyword_calls_agree(handle, mem):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((3, 3)) + 3 * np.eye(3)
    results = []
    for style in ("positional", "keyword", "mixed"):
        A, ipiv, info = mem.upload(a.T), mem.upload(np.zeros(3, np.int32)), mem.upload(np.zeros(1, np.int32))
        args = (handle, 3, A, 3, ipiv, info)
        if style == "positional":
            check(hipblas.hipblasDgetrf(*args))
        elif style == "keyword":
            check(hipblas.hipblasDgetrf(info=info, ipiv=ipiv, lda=3, A=A, n=3, handle=handle))
        else:
            check(hipblas.hipblasDgetrf(handle, 3, A, lda=3, ipiv=ipiv, info=info))
        results.append(mem.download(A, a))
    np.testing.assert_array_equal(results[0], results[1])
    np.testing.assert_array_equal(results[0], results[2])
    with pytest.raises(TypeError):
        hipblas.hipblasDgetrf(handle, 3, A, 3, ipiv)  # missing info
    with pytest.raises(TypeError):
        hipblas.hipblasDgetrf(handle, 3, A, 3, ipiv, info, n=3)  # repeated
    with pytest.raises(TypeError):
        hipblas.hipblasDgetrf(handle, 3, A, 3, ipiv, info, tau=0)  # unknown


def test_device_arrays_as_arguments(handle):
    import rocmath as rm

    rng = np.random.default_rng(2)
    m, n, count = 4, 3, 3
    mats = [rng.standard_normal((m, n)) for _ in range(count)]
    entries = [rm.to_device(np.asfortranarray(a).ravel(order="F")) for a in mats]
    taus = [rm.zeros(n) for _ in range(count)]
    table_a = rm.to_device(np.array([e.ptr for e in entries], np.uint64))
    table_t = rm.to_device(np.array([t.ptr for t in taus], np.uint64))
    info = ctypes.c_int(9)
    check(hipblas.hipblasDgeqrfBatched(handle, m, n, table_a, m, table_t, info, count))
    assert info.value == 0
    for a, e, t in zip(mats, entries, taus, strict=True):
        out = e.get().reshape(n, m).T
        assert np.linalg.norm(a - _q_times_r(out, t.get())) < 1e-12
