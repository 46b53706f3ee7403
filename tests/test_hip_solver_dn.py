"""rocmath.hip.hipsolver's compatibility API (hipsolverDn*): the names and parameters of hip-python 6.2, each Dn
routine bitwise its regular twin, the departures (no work/lwork, W, gesvd's job-free size query, the work
argument of the gels/gesv queries), the parameters object functions and the 64-bit generic getrf/getrs,
cross-checked with SciPy; statuses in hipSOLVER's order.

Numerics run in the precision the regular hipSOLVER tests compile (no kernel of their own); the size queries,
which launch nothing, run in every precision.
"""

from __future__ import annotations

import ctypes
import inspect
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
import scipy.linalg as sla
from hip_util import check, to_device, to_host

from rocmath.hip import hip, hipblas, hipsolver
from rocmath.hip._hipsolver_dn import DnParams
from rocmath.hip._lib import find
from rocmath.solver import gesvdx

S = hipsolver.hipsolverStatus_t
T = hip.hipDataType
LOWER = hipblas.hipblasFillMode_t.HIPBLAS_FILL_MODE_LOWER
UPPER = hipblas.hipblasFillMode_t.HIPBLAS_FILL_MODE_UPPER
OP = hipblas.hipblasOperation_t
VECTOR = hipsolver.hipsolverEigMode_t.HIPSOLVER_EIG_MODE_VECTOR
DTYPE = {"S": np.float32, "D": np.float64, "C": np.complex64, "Z": np.complex128}
SUCCESS = S.HIPSOLVER_STATUS_SUCCESS

#: hip-python 6.2's hipsolverDn functions (``^def hipsolverDn`` in its hipsolver.pyx), in its order.
_HIP_PYTHON_DN = """
hipsolverDnCreate hipsolverDnDestroy hipsolverDnSetStream hipsolverDnGetStream hipsolverDnCreateGesvdjInfo
hipsolverDnDestroyGesvdjInfo hipsolverDnXgesvdjSetMaxSweeps hipsolverDnXgesvdjSetSortEig
hipsolverDnXgesvdjSetTolerance hipsolverDnXgesvdjGetResidual hipsolverDnXgesvdjGetSweeps
hipsolverDnCreateSyevjInfo hipsolverDnDestroySyevjInfo hipsolverDnXsyevjSetMaxSweeps hipsolverDnXsyevjSetSortEig
hipsolverDnXsyevjSetTolerance hipsolverDnXsyevjGetResidual hipsolverDnXsyevjGetSweeps
hipsolverDnSorgbr_bufferSize hipsolverDnDorgbr_bufferSize hipsolverDnCungbr_bufferSize
hipsolverDnZungbr_bufferSize hipsolverDnSorgbr hipsolverDnDorgbr hipsolverDnCungbr hipsolverDnZungbr
hipsolverDnSorgqr_bufferSize hipsolverDnDorgqr_bufferSize hipsolverDnCungqr_bufferSize
hipsolverDnZungqr_bufferSize hipsolverDnSorgqr hipsolverDnDorgqr hipsolverDnCungqr hipsolverDnZungqr
hipsolverDnSorgtr_bufferSize hipsolverDnDorgtr_bufferSize hipsolverDnCungtr_bufferSize
hipsolverDnZungtr_bufferSize hipsolverDnSorgtr hipsolverDnDorgtr hipsolverDnCungtr hipsolverDnZungtr
hipsolverDnSormqr_bufferSize hipsolverDnDormqr_bufferSize hipsolverDnCunmqr_bufferSize
hipsolverDnZunmqr_bufferSize hipsolverDnSormqr hipsolverDnDormqr hipsolverDnCunmqr hipsolverDnZunmqr
hipsolverDnSormtr_bufferSize hipsolverDnDormtr_bufferSize hipsolverDnCunmtr_bufferSize
hipsolverDnZunmtr_bufferSize hipsolverDnSormtr hipsolverDnDormtr hipsolverDnCunmtr hipsolverDnZunmtr
hipsolverDnSgebrd_bufferSize hipsolverDnDgebrd_bufferSize hipsolverDnCgebrd_bufferSize
hipsolverDnZgebrd_bufferSize hipsolverDnSgebrd hipsolverDnDgebrd hipsolverDnCgebrd hipsolverDnZgebrd
hipsolverDnSSgels_bufferSize hipsolverDnDDgels_bufferSize hipsolverDnCCgels_bufferSize
hipsolverDnZZgels_bufferSize hipsolverDnSSgels hipsolverDnDDgels hipsolverDnCCgels hipsolverDnZZgels
hipsolverDnSgeqrf_bufferSize hipsolverDnDgeqrf_bufferSize hipsolverDnCgeqrf_bufferSize
hipsolverDnZgeqrf_bufferSize hipsolverDnSgeqrf hipsolverDnDgeqrf hipsolverDnCgeqrf hipsolverDnZgeqrf
hipsolverDnSSgesv_bufferSize hipsolverDnDDgesv_bufferSize hipsolverDnCCgesv_bufferSize
hipsolverDnZZgesv_bufferSize hipsolverDnSSgesv hipsolverDnDDgesv hipsolverDnCCgesv hipsolverDnZZgesv
hipsolverDnSgesvd_bufferSize hipsolverDnDgesvd_bufferSize hipsolverDnCgesvd_bufferSize
hipsolverDnZgesvd_bufferSize hipsolverDnSgesvd hipsolverDnDgesvd hipsolverDnCgesvd hipsolverDnZgesvd
hipsolverDnSgesvdj_bufferSize hipsolverDnDgesvdj_bufferSize hipsolverDnCgesvdj_bufferSize
hipsolverDnZgesvdj_bufferSize hipsolverDnSgesvdj hipsolverDnDgesvdj hipsolverDnCgesvdj hipsolverDnZgesvdj
hipsolverDnSgesvdjBatched_bufferSize hipsolverDnDgesvdjBatched_bufferSize hipsolverDnCgesvdjBatched_bufferSize
hipsolverDnZgesvdjBatched_bufferSize hipsolverDnSgesvdjBatched hipsolverDnDgesvdjBatched
hipsolverDnCgesvdjBatched hipsolverDnZgesvdjBatched hipsolverDnSgesvdaStridedBatched_bufferSize
hipsolverDnDgesvdaStridedBatched_bufferSize hipsolverDnCgesvdaStridedBatched_bufferSize
hipsolverDnZgesvdaStridedBatched_bufferSize hipsolverDnSgesvdaStridedBatched hipsolverDnDgesvdaStridedBatched
hipsolverDnCgesvdaStridedBatched hipsolverDnZgesvdaStridedBatched hipsolverDnSgetrf_bufferSize
hipsolverDnDgetrf_bufferSize hipsolverDnCgetrf_bufferSize hipsolverDnZgetrf_bufferSize hipsolverDnSgetrf
hipsolverDnDgetrf hipsolverDnCgetrf hipsolverDnZgetrf hipsolverDnSgetrs hipsolverDnDgetrs hipsolverDnCgetrs
hipsolverDnZgetrs hipsolverDnSpotrf_bufferSize hipsolverDnDpotrf_bufferSize hipsolverDnCpotrf_bufferSize
hipsolverDnZpotrf_bufferSize hipsolverDnSpotrf hipsolverDnDpotrf hipsolverDnCpotrf hipsolverDnZpotrf
hipsolverDnSpotrfBatched hipsolverDnDpotrfBatched hipsolverDnCpotrfBatched hipsolverDnZpotrfBatched
hipsolverDnSpotri_bufferSize hipsolverDnDpotri_bufferSize hipsolverDnCpotri_bufferSize
hipsolverDnZpotri_bufferSize hipsolverDnSpotri hipsolverDnDpotri hipsolverDnCpotri hipsolverDnZpotri
hipsolverDnSpotrs hipsolverDnDpotrs hipsolverDnCpotrs hipsolverDnZpotrs hipsolverDnSpotrsBatched
hipsolverDnDpotrsBatched hipsolverDnCpotrsBatched hipsolverDnZpotrsBatched hipsolverDnSsyevd_bufferSize
hipsolverDnDsyevd_bufferSize hipsolverDnCheevd_bufferSize hipsolverDnZheevd_bufferSize hipsolverDnSsyevd
hipsolverDnDsyevd hipsolverDnCheevd hipsolverDnZheevd hipsolverDnSsyevdx_bufferSize
hipsolverDnDsyevdx_bufferSize hipsolverDnCheevdx_bufferSize hipsolverDnZheevdx_bufferSize hipsolverDnSsyevdx
hipsolverDnDsyevdx hipsolverDnCheevdx hipsolverDnZheevdx hipsolverDnSsyevj_bufferSize
hipsolverDnDsyevj_bufferSize hipsolverDnCheevj_bufferSize hipsolverDnZheevj_bufferSize hipsolverDnSsyevj
hipsolverDnDsyevj hipsolverDnCheevj hipsolverDnZheevj hipsolverDnSsyevjBatched_bufferSize
hipsolverDnDsyevjBatched_bufferSize hipsolverDnCheevjBatched_bufferSize hipsolverDnZheevjBatched_bufferSize
hipsolverDnSsyevjBatched hipsolverDnDsyevjBatched hipsolverDnCheevjBatched hipsolverDnZheevjBatched
hipsolverDnSsygvd_bufferSize hipsolverDnDsygvd_bufferSize hipsolverDnChegvd_bufferSize
hipsolverDnZhegvd_bufferSize hipsolverDnSsygvd hipsolverDnDsygvd hipsolverDnChegvd hipsolverDnZhegvd
hipsolverDnSsygvdx_bufferSize hipsolverDnDsygvdx_bufferSize hipsolverDnChegvdx_bufferSize
hipsolverDnZhegvdx_bufferSize hipsolverDnSsygvdx hipsolverDnDsygvdx hipsolverDnChegvdx hipsolverDnZhegvdx
hipsolverDnSsygvj_bufferSize hipsolverDnDsygvj_bufferSize hipsolverDnChegvj_bufferSize
hipsolverDnZhegvj_bufferSize hipsolverDnSsygvj hipsolverDnDsygvj hipsolverDnChegvj hipsolverDnZhegvj
hipsolverDnSsytrd_bufferSize hipsolverDnDsytrd_bufferSize hipsolverDnChetrd_bufferSize
hipsolverDnZhetrd_bufferSize hipsolverDnSsytrd hipsolverDnDsytrd hipsolverDnChetrd hipsolverDnZhetrd
hipsolverDnSsytrf_bufferSize hipsolverDnDsytrf_bufferSize hipsolverDnCsytrf_bufferSize
hipsolverDnZsytrf_bufferSize hipsolverDnSsytrf hipsolverDnDsytrf hipsolverDnCsytrf hipsolverDnZsytrf
hipsolverDnCreateParams hipsolverDnDestroyParams hipsolverDnSetAdvOptions hipsolverDnXgetrf_bufferSize
hipsolverDnXgetrf hipsolverDnXgetrs
"""
HIP_PYTHON_DN = _HIP_PYTHON_DN.split()

#: hip-python 6.2's parameters of the single-precision (or precision-free) Dn functions; the other precisions'
#: are the same.
SIGNATURES = {
    "hipsolverDnCreate": "",
    "hipsolverDnDestroy": "handle",
    "hipsolverDnSetStream": "handle streamId",
    "hipsolverDnGetStream": "handle streamId",
    "hipsolverDnCreateGesvdjInfo": "info",
    "hipsolverDnDestroyGesvdjInfo": "info",
    "hipsolverDnXgesvdjSetMaxSweeps": "info max_sweeps",
    "hipsolverDnXgesvdjSetSortEig": "info sort_eig",
    "hipsolverDnXgesvdjSetTolerance": "info tolerance",
    "hipsolverDnXgesvdjGetResidual": "handle info residual",
    "hipsolverDnXgesvdjGetSweeps": "handle info executed_sweeps",
    "hipsolverDnCreateSyevjInfo": "info",
    "hipsolverDnDestroySyevjInfo": "info",
    "hipsolverDnXsyevjSetMaxSweeps": "info max_sweeps",
    "hipsolverDnXsyevjSetSortEig": "info sort_eig",
    "hipsolverDnXsyevjSetTolerance": "info tolerance",
    "hipsolverDnXsyevjGetResidual": "handle info residual",
    "hipsolverDnXsyevjGetSweeps": "handle info executed_sweeps",
    "hipsolverDnSorgbr_bufferSize": "handle side m n k A lda tau lwork",
    "hipsolverDnSorgbr": "handle side m n k A lda tau work lwork devInfo",
    "hipsolverDnSorgqr_bufferSize": "handle m n k A lda tau lwork",
    "hipsolverDnSorgqr": "handle m n k A lda tau work lwork devInfo",
    "hipsolverDnSorgtr_bufferSize": "handle uplo n A lda tau lwork",
    "hipsolverDnSorgtr": "handle uplo n A lda tau work lwork devInfo",
    "hipsolverDnSormqr_bufferSize": "handle side trans m n k A lda tau C ldc lwork",
    "hipsolverDnSormqr": "handle side trans m n k A lda tau C ldc work lwork devInfo",
    "hipsolverDnSormtr_bufferSize": "handle side uplo trans m n A lda tau C ldc lwork",
    "hipsolverDnSormtr": "handle side uplo trans m n A lda tau C ldc work lwork devInfo",
    "hipsolverDnSgebrd_bufferSize": "handle m n lwork",
    "hipsolverDnSgebrd": "handle m n A lda D E tauq taup work lwork devInfo",
    "hipsolverDnSSgels_bufferSize": "handle m n nrhs A lda B ldb X ldx work lwork",
    "hipsolverDnSSgels": "handle m n nrhs A lda B ldb X ldx work lwork niters devInfo",
    "hipsolverDnSgeqrf_bufferSize": "handle m n A lda lwork",
    "hipsolverDnSgeqrf": "handle m n A lda tau work lwork devInfo",
    "hipsolverDnSSgesv_bufferSize": "handle n nrhs A lda devIpiv B ldb X ldx work lwork",
    "hipsolverDnSSgesv": "handle n nrhs A lda devIpiv B ldb X ldx work lwork niters devInfo",
    "hipsolverDnSgesvd_bufferSize": "handle m n lwork",
    "hipsolverDnSgesvd": "handle jobu jobv m n A lda S U ldu V ldv work lwork rwork devInfo",
    "hipsolverDnSgesvdj_bufferSize": "handle jobz econ m n A lda S U ldu V ldv lwork params",
    "hipsolverDnSgesvdj": "handle jobz econ m n A lda S U ldu V ldv work lwork devInfo params",
    "hipsolverDnSgesvdjBatched_bufferSize": "handle jobz m n A lda S U ldu V ldv lwork params batch_count",
    "hipsolverDnSgesvdjBatched": "handle jobz m n A lda S U ldu V ldv work lwork devInfo params batch_count",
    "hipsolverDnSgesvdaStridedBatched_bufferSize": "handle jobz rank m n A lda strideA S strideS U ldu strideU V ldv "
                                                   "strideV lwork batch_count",
    "hipsolverDnSgesvdaStridedBatched": "handle jobz rank m n A lda strideA S strideS U ldu strideU V ldv strideV work "
                                        "lwork devInfo hRnrmF batch_count",
    "hipsolverDnSgetrf_bufferSize": "handle m n A lda lwork",
    "hipsolverDnSgetrf": "handle m n A lda work devIpiv devInfo",
    "hipsolverDnSgetrs": "handle trans n nrhs A lda devIpiv B ldb devInfo",
    "hipsolverDnSpotrf_bufferSize": "handle uplo n A lda lwork",
    "hipsolverDnSpotrf": "handle uplo n A lda work lwork devInfo",
    "hipsolverDnSpotrfBatched": "handle uplo n A lda devInfo batch_count",
    "hipsolverDnSpotri_bufferSize": "handle uplo n A lda lwork",
    "hipsolverDnSpotri": "handle uplo n A lda work lwork devInfo",
    "hipsolverDnSpotrs": "handle uplo n nrhs A lda B ldb devInfo",
    "hipsolverDnSpotrsBatched": "handle uplo n nrhs A lda B ldb devInfo batch_count",
    "hipsolverDnSsyevd_bufferSize": "handle jobz uplo n A lda W lwork",
    "hipsolverDnSsyevd": "handle jobz uplo n A lda W work lwork devInfo",
    "hipsolverDnSsyevdx_bufferSize": "handle jobz range uplo n A lda vl vu il iu nev W lwork",
    "hipsolverDnSsyevdx": "handle jobz range uplo n A lda vl vu il iu nev W work lwork devInfo",
    "hipsolverDnSsyevj_bufferSize": "handle jobz uplo n A lda W lwork params",
    "hipsolverDnSsyevj": "handle jobz uplo n A lda W work lwork devInfo params",
    "hipsolverDnSsyevjBatched_bufferSize": "handle jobz uplo n A lda W lwork params batch_count",
    "hipsolverDnSsyevjBatched": "handle jobz uplo n A lda W work lwork devInfo params batch_count",
    "hipsolverDnSsygvd_bufferSize": "handle itype jobz uplo n A lda B ldb W lwork",
    "hipsolverDnSsygvd": "handle itype jobz uplo n A lda B ldb W work lwork devInfo",
    "hipsolverDnSsygvdx_bufferSize": "handle itype jobz range uplo n A lda B ldb vl vu il iu nev W lwork",
    "hipsolverDnSsygvdx": "handle itype jobz range uplo n A lda B ldb vl vu il iu nev W work lwork devInfo",
    "hipsolverDnSsygvj_bufferSize": "handle itype jobz uplo n A lda B ldb W lwork params",
    "hipsolverDnSsygvj": "handle itype jobz uplo n A lda B ldb W work lwork devInfo params",
    "hipsolverDnSsytrd_bufferSize": "handle uplo n A lda D E tau lwork",
    "hipsolverDnSsytrd": "handle uplo n A lda D E tau work lwork devInfo",
    "hipsolverDnSsytrf_bufferSize": "handle n A lda lwork",
    "hipsolverDnSsytrf": "handle uplo n A lda ipiv work lwork devInfo",
    "hipsolverDnCreateParams": "params",
    "hipsolverDnDestroyParams": "params",
    "hipsolverDnSetAdvOptions": "params func alg",
    "hipsolverDnXgetrf_bufferSize": "handle params m n dataTypeA A lda computeType lworkOnDevice lworkOnHost",
    "hipsolverDnXgetrf": "handle params m n dataTypeA A lda devIpiv computeType workOnDevice lworkOnDevice workOnHost "
                         "lworkOnHost devInfo",
    "hipsolverDnXgetrs": "handle params trans n nrhs dataTypeA A lda devIpiv dataTypeB B ldb devInfo",
}


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = check(hipsolver.hipsolverDnCreate())
    yield h
    check(hipsolver.hipsolverDnDestroy(h))


class Dev:
    """Device memory and parameters objects of one test, freed together."""

    def __init__(self) -> None:
        self.ptrs: list[Any] = []
        self.objects: list[tuple[Callable[..., Any], Any]] = []

    def put(self, a: np.ndarray) -> Any:
        self.ptrs.append(to_device(np.asfortranarray(a)))
        return self.ptrs[-1]

    def info(self, count: int = 1) -> Any:
        return self.put(np.full(count, -7, np.int32))

    def params(self, kind: str) -> Any:
        title = kind.capitalize()
        obj = check(getattr(hipsolver, f"hipsolverCreate{title}Info")())
        self.objects.append((getattr(hipsolver, f"hipsolverDestroy{title}Info"), obj))
        return obj

    def free(self) -> None:
        for destroy, obj in self.objects:
            check(destroy(obj))
        for p in self.ptrs:
            check(hip.hipFree(p))


@pytest.fixture
def dev() -> Iterator[Dev]:
    d = Dev()
    yield d
    d.free()


def host(d: Any, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    return to_host(d, np.zeros(shape, dtype, order="F"))


def rand(letter: str, *shape: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if letter in "CZ":
        a = a + 1j * rng.standard_normal(shape)
    return np.asfortranarray(a.astype(DTYPE[letter]))


def hpd(letter: str, n: int, seed: int = 0) -> np.ndarray:
    m = rand(letter, n, n, seed=seed)
    return np.asfortranarray((m @ m.conj().T + n * np.eye(n)).astype(DTYPE[letter]))


def bound() -> dict[str, Any]:
    return {name: getattr(hipsolver, name) for name in hipsolver.DN_MANIFEST}


def single(name: str) -> str:
    """The single-precision twin's name of a Dn function (``hipsolverDnZungqr`` -> ``hipsolverDnSorgqr``)."""
    rest = name.removeprefix("hipsolverDn")
    if name in SIGNATURES or rest[0] not in "DCZ" or rest.startswith(("Create", "Destroy")):
        return name
    rest = "SS" + rest[2:] if rest[1] == rest[0] else "S" + rest[1:]
    for complex_op, real_op in (("Sung", "Sorg"), ("Sunm", "Sorm"), ("She", "Ssy")):
        rest = rest.replace(complex_op, real_op, 1) if rest.startswith(complex_op) else rest
    return "hipsolverDn" + rest


# --- the names ----------------------------------------------------------------------------------------------


def test_the_names_are_hip_pythons():
    names = set(HIP_PYTHON_DN)
    assert len(names) == len(HIP_PYTHON_DN) == 240
    made = set(hipsolver.DN_MANIFEST)
    unavailable = set(hipsolver.DN_UNAVAILABLE)
    assert made | unavailable == names and not made & unavailable
    assert sorted(unavailable) == hipsolver.DN_UNAVAILABLE
    gesvda = {f"hipsolverDn{p}gesvdaStridedBatched{q}" for p in "SDCZ" for q in ("", "_bufferSize")}
    assert gesvda <= made and all(hipsolver.DN_MANIFEST[name] is None for name in gesvda)  # written out
    for name, fn in bound().items():
        assert fn.__name__ == name and name in hipsolver.__all__, name
        twin = hipsolver.DN_MANIFEST[name]
        assert twin is None or twin == "hipsolver" + name.removeprefix("hipsolverDn"), name
    for name in unavailable:
        assert not hasattr(hipsolver, name), name
    assert {"hipsolverAlgMode_t", "hipsolverDnFunction_t", "DN_MANIFEST", "DN_UNAVAILABLE"} <= set(hipsolver.__all__)
    assert (hipsolver.hipsolverAlgMode_t.HIPSOLVER_ALG_1, hipsolver.hipsolverDnFunction_t.HIPSOLVERDN_GETRF) == (232, 0)


def test_parameters_are_hip_pythons():
    for name, fn in bound().items():
        assert " ".join(inspect.signature(fn).parameters) == SIGNATURES[single(name)], name


# --- each Dn routine is its twin ------------------------------------------------------------------------------------

N, NRHS, BATCH = 4, 2, 2
#: The precision whose kernels the regular hipSOLVER tests compile, per family the numbers are compared in.
NUMBERS = {"getrf": "D", "getrs": "D", "potrf": "D", "potrs": "S", "potrfBatched": "D", "potrsBatched": "D",
           "geqrf": "D", "gels": "D", "gesvd": "D", "gesvdj": "D", "gesvdjBatched": "D", "syevd": "Z", "sygvd": "D",
           "syevj": "D", "syevjBatched": "D", "orgbr": "D", "orgtr": "D", "ormtr": "D"}
#: Options as the regular tests run them (the same kernels).
OPTIONS: dict[str, dict[str, Any]] = {
    "gesvd": {"jobu": ord("N"), "jobv": ord("N")}, "gesvdj": {"econ": 1}, "sygvd": {"uplo": UPPER},
    "syevjBatched": {"jobz": hipsolver.hipsolverEigMode_t.HIPSOLVER_EIG_MODE_NOVECTOR},
}


class Problem:
    """One problem's arguments by the regular twin's parameter names, fresh device copies of the same data each
    time (``seed``), and every buffer it may write."""

    def __init__(self, dev: Dev, letter: str, family: str) -> None:
        dt = DTYPE[letter]
        batched = family in ("potrfBatched", "potrsBatched")
        count = BATCH if batched or family.endswith("Batched") else 1
        self.buffers: list[tuple[Any, int]] = []

        def buf(a: np.ndarray) -> Any:
            d = dev.put(a)
            self.buffers.append((d, np.asarray(a).nbytes))
            return d

        mats = [hpd(letter, N, seed=s) for s in range(count)]
        if batched:
            A = dev.put(np.array([int(buf(m)) for m in mats], np.uint64))
            B = dev.put(np.array([int(buf(rand(letter, N, NRHS, seed=9 + s))) for s in range(count)], np.uint64))
        else:
            A = buf(np.hstack(mats))
            B = buf(hpd(letter, N, seed=7) if family == "sygvd" else rand(letter, N, NRHS, seed=9))
        kind = "gesvdj" if "gesvdj" in family else "syevj"
        space = np.zeros(2 * N * N * count, dt)
        self.values = {
            "m": N, "n": N, "k": N, "nrhs": NRHS, "lda": N, "ldb": N, "ldc": N, "ldu": N, "ldv": N, "ldx": N,
            "A": A, "B": B, "C": buf(rand(letter, N, N, seed=5)), "X": buf(space), "tau": buf(rand(letter, N, seed=6)),
            "devIpiv": buf(np.array([2, 2, 4, 4] * count, np.int32)), "devInfo": buf(np.full(count, -7, np.int32)),
            **{out: buf(space) for out in ("D", "E", "W", "S", "U", "V", "tauq", "taup")},
            "work": None, "lwork": 0, "rwork": None, "niters": None, "batch_count": count, "econ": 0,
            "uplo": LOWER, "trans": OP.HIPBLAS_OP_N, "side": hipblas.hipblasSideMode_t.HIPBLAS_SIDE_LEFT,
            "jobz": VECTOR, "itype": hipsolver.hipsolverEigType_t.HIPSOLVER_EIG_TYPE_1, "jobu": ord("A"),
            "jobv": ord("A"), "params": dev.params(kind),
            "range": hipsolver.hipsolverEigRange_t.HIPSOLVER_EIG_RANGE_V, "vl": -1.0, "vu": 1.0, "il": 1, "iu": N,
            "nev": None, "ipiv": buf(np.zeros(N * count, np.int32)), **OPTIONS.get(family, {}),
        }

    def written(self) -> list[bytes]:
        return [host(d, (nbytes,), np.uint8).tobytes() for d, nbytes in self.buffers]


def call(fn: Callable[..., tuple[Any, ...]], h: Any, values: dict[str, Any], query: bool) -> tuple[Any, ...]:
    """``fn`` called by keyword (hip-python's names; ``W`` is the regular ``D``), without ``lwork`` if a query."""
    names = [p for p in inspect.signature(fn).parameters if not (query and p == "lwork")]
    return fn(**{p: h if p == "handle" else values["D" if p == "W" and "W" not in values else p] for p in names})


def twins(letter: str, family: str) -> tuple[str, str]:
    fam = hipsolver.FAMILIES[family]
    name = f"hipsolver{letter * (2 if fam.twice else 1)}{fam.ops[letter]}"
    return name, "hipsolverDn" + name.removeprefix("hipsolver")


@pytest.mark.parametrize("family", sorted(f for f in NUMBERS if f in hipsolver.FAMILIES))
def test_each_routine_is_bitwise_its_twin(handle, dev, family):
    """The same problem through the regular function and its Dn name (by keyword): the same status and the same
    bytes in every buffer; the Dn size query (where there is one) answers as the regular one."""
    letter = NUMBERS[family]
    regular, dn = twins(letter, family)
    outcome = []
    for fn in (getattr(hipsolver, regular), getattr(hipsolver, dn)):
        problem = Problem(dev, letter, family)
        if family == "syevd":  # the eigenvalues: D in the regular API, W in the Dn one
            problem.values["W"] = problem.values["D"]
        status = call(fn, handle, problem.values, False)
        outcome.append((status, problem.written()))
    assert outcome[0][0] == (SUCCESS,)
    assert outcome[0] == outcome[1]
    if hasattr(hipsolver, f"{dn}_bufferSize") and family != "gesvd":  # gesvd's has no jobs: its own test
        problem = Problem(dev, letter, family)
        problem.values["work"] = problem.values["X"]  # gels/gesv's Dn query takes work (not used)
        assert call(getattr(hipsolver, f"{dn}_bufferSize"), handle, problem.values, True) == call(
            getattr(hipsolver, f"{regular}_bufferSize"), handle, problem.values, True)


def test_every_size_query_in_every_precision_is_its_twins(handle, dev):
    """Every bound Dn size query (future families' included; gesvd's has its own test) against its twin's, in
    every precision: they launch nothing."""
    problems = {letter: Problem(dev, letter, "syevjBatched") for letter in "SDCZ"}
    for name, fn in bound().items():
        twin = hipsolver.DN_MANIFEST[name]
        if twin is None or not name.endswith("_bufferSize") or "gesvd_" in name:
            continue
        letter = name.removeprefix("hipsolverDn")[0]
        values = {**problems[letter].values, "work": None}
        got, want = call(fn, handle, values, True), call(getattr(hipsolver, twin), handle, values, True)
        assert got == want and got[0] == SUCCESS and got[1] >= 0, name
        lwork = (ctypes.c_size_t if "gels" in name or "gesv" in name else ctypes.c_int)(-1)
        positions = [handle if p == "handle" else lwork if p == "lwork" else values[p]
                     for p in inspect.signature(fn).parameters]
        assert fn(*positions) == (SUCCESS,) and lwork.value == want[1], name


# --- the departures ---------------------------------------------------------------------------------------------


def test_getrf_without_lwork_and_getrs_without_work(handle, dev):
    """Dn getrf sizes its workspace with the regular query; Dn getrs uses the handle's: SciPy's LU and solution."""
    A, B = rand("D", N, N, seed=1) + 3 * np.eye(N), rand("D", N, NRHS, seed=2)
    dA, dB, ipiv, info = dev.put(A), dev.put(B), dev.put(np.zeros(N, np.int32)), dev.info()
    lwork = check(hipsolver.hipsolverDnDgetrf_bufferSize(handle, N, N, dA, N))
    work = dev.put(np.zeros(max(lwork, 1), np.uint8))
    check(hipsolver.hipsolverDnDgetrf(handle, N, N, dA, N, work, ipiv, info))  # positions
    lu, piv = sla.lu_factor(A)
    np.testing.assert_allclose(host(dA, (N, N), np.float64), lu, rtol=1e-13, atol=1e-14)
    np.testing.assert_array_equal(host(ipiv, (N,), np.int32), piv + 1)
    assert host(info, (1,), np.int32)[0] == 0
    check(hipsolver.hipsolverDnDgetrs(handle=handle, trans=OP.HIPBLAS_OP_N, n=N, nrhs=NRHS, A=dA, lda=N,
                                      devIpiv=ipiv, B=dB, ldb=N, devInfo=info))
    np.testing.assert_allclose(host(dB, (N, NRHS), np.float64), sla.lu_solve((lu, piv), B), rtol=1e-12)
    # the query's status is the call's: a null handle, lda < m; getrs's devInfo is zeroed (NULL: INVALID_VALUE)
    assert hipsolver.hipsolverDnDgetrf(None, N, N, dA, N, None, ipiv, info) == (S.HIPSOLVER_STATUS_NOT_INITIALIZED,)
    assert hipsolver.hipsolverDnDgetrf(handle, N, N, dA, N - 1, None, ipiv, info) == (
        S.HIPSOLVER_STATUS_INVALID_VALUE,)
    assert hipsolver.hipsolverDnDgetrs(handle, OP.HIPBLAS_OP_N, N, NRHS, dA, N, ipiv, dB, N, None) == (
        S.HIPSOLVER_STATUS_INVALID_VALUE,)
    with pytest.raises(TypeError, match="hipsolverDnDgetrs"):
        hipsolver.hipsolverDnDgetrs(handle, OP.HIPBLAS_OP_N, N, NRHS, dA, N, ipiv, dB, N, None, 0, info)
    with pytest.raises(TypeError, match="'lwork'"):
        hipsolver.hipsolverDnDgetrf(handle, N, N, dA, N, None, ipiv, info, lwork=0)
    with pytest.raises(OverflowError, match="'lda'"):
        hipsolver.hipsolverDnDgetrf(handle, N, N, dA, 2**31, None, ipiv, info)


def test_cholesky_without_work(handle, dev):
    """Dn potrs (S), potrfBatched and potrsBatched (D) on the handle's workspace: SciPy's factors and solutions."""
    A, B = hpd("S", N, seed=3), rand("S", N, NRHS, seed=4)
    dA, dB, info = dev.put(A), dev.put(B), dev.info()
    check(hipsolver.hipsolverDnSpotrf(handle, LOWER, N, dA, N, None, 0, info))
    check(hipsolver.hipsolverDnSpotrs(handle, LOWER, N, NRHS, dA, N, dB, N, info))
    np.testing.assert_allclose(host(dB, (N, NRHS), np.float32), sla.cho_solve((sla.cholesky(A, lower=True), True),
                                                                              B), rtol=1e-4, atol=1e-5)
    mats, rhs = [hpd("D", N, seed=10 + b) for b in range(BATCH)], [rand("D", N, NRHS, seed=20 + b) for b in range(2)]
    As, Bs = [dev.put(m) for m in mats], [dev.put(r) for r in rhs]
    pA, pB = dev.put(np.array([int(p) for p in As], np.uint64)), dev.put(np.array([int(p) for p in Bs], np.uint64))
    infos = dev.info(BATCH)
    check(hipsolver.hipsolverDnDpotrfBatched(handle, LOWER, N, pA, N, infos, BATCH))
    check(hipsolver.hipsolverDnDpotrsBatched(handle, uplo=LOWER, n=N, nrhs=NRHS, A=pA, lda=N, B=pB, ldb=N,
                                             devInfo=infos, batch_count=BATCH))
    for b in range(BATCH):
        L = sla.cholesky(mats[b], lower=True)
        np.testing.assert_allclose(np.tril(host(As[b], (N, N), np.float64)), L, rtol=1e-12)
        np.testing.assert_allclose(host(Bs[b], (N, NRHS), np.float64), sla.cho_solve((L, True), rhs[b]), rtol=1e-11)
    np.testing.assert_array_equal(host(infos, (BATCH,), np.int32), 0)
    # no work given: a negative count is rocSOLVER's invalid size, infos untouched (hipSOLVER zeroes them only with
    # a work buffer); NULL handle first
    assert hipsolver.hipsolverDnDpotrsBatched(handle, LOWER, N, NRHS, pA, N, pB, N, dev.info(), -1) == (
        S.HIPSOLVER_STATUS_INVALID_VALUE,)
    assert hipsolver.hipsolverDnDpotrfBatched(None, LOWER, N, pA, N, infos, BATCH) == (
        S.HIPSOLVER_STATUS_NOT_INITIALIZED,)
    full = hipblas.hipblasFillMode_t.HIPBLAS_FILL_MODE_FULL
    assert hipsolver.hipsolverDnSpotrs(handle, full, N, NRHS, dA, N, dB, N, info) == (S.HIPSOLVER_STATUS_INVALID_ENUM,)


def test_heevd_names_its_eigenvalues_w(handle, dev):
    H = rand("Z", N, N, seed=5)
    H = np.asfortranarray(H + H.conj().T)
    dH, W, info = dev.put(H), dev.put(np.zeros(N)), dev.info()
    lwork = check(hipsolver.hipsolverDnZheevd_bufferSize(handle, VECTOR, LOWER, N, dH, N, W=W))
    work = dev.put(np.zeros(max(lwork, 1), np.uint8))
    check(hipsolver.hipsolverDnZheevd(handle=handle, jobz=VECTOR, uplo=LOWER, n=N, A=dH, lda=N, W=W, work=work,
                                      lwork=lwork, devInfo=info))
    w, V = sla.eigh(H)
    np.testing.assert_allclose(host(W, (N,), np.float64), w, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(np.abs(host(dH, (N, N), np.complex128).conj().T @ V), np.eye(N), atol=1e-10)
    with pytest.raises(TypeError, match="'D'"):
        hipsolver.hipsolverDnZheevd(handle, VECTOR, LOWER, N, dH, N, None, 0, info, D=W)


def test_gesvd_query_takes_no_jobs(handle):
    """The largest regular answer over the 15 valid job pairs (O/O left out), written through an int* or
    returned; a failing query's status is the call's."""
    for letter in "SDCZ":
        m, n = 9, 5
        regular = getattr(hipsolver, f"hipsolver{letter}gesvd_bufferSize")
        sizes = {(u, v): check(regular(handle, ord(u), ord(v), m, n)) for u in "NASO" for v in "NASO"
                 if (u, v) != ("O", "O")}
        lwork = ctypes.c_int(-1)
        check(getattr(hipsolver, f"hipsolverDn{letter}gesvd_bufferSize")(handle, m, n, lwork))
        assert lwork.value == max(sizes.values()) > 0
        assert getattr(hipsolver, f"hipsolverDn{letter}gesvd_bufferSize")(handle=handle, m=m, n=n) == (
            SUCCESS, lwork.value)
    assert regular(handle, ord("O"), ord("O"), m, n)[0] == S.HIPSOLVER_STATUS_INVALID_VALUE  # why O/O is skipped
    assert hipsolver.hipsolverDnDgesvd_bufferSize(None, 3, 3) == (S.HIPSOLVER_STATUS_NOT_INITIALIZED, None)
    assert hipsolver.hipsolverDnDgesvd_bufferSize(handle, -1, 3) == (S.HIPSOLVER_STATUS_INVALID_VALUE, None)
    with pytest.raises(OverflowError, match="'n'"):
        hipsolver.hipsolverDnDgesvd_bufferSize(handle, 3, 2**31)


def test_gels_gesv_queries_take_an_unused_work(handle, dev):
    dA, dB, dX, ipiv = dev.put(np.eye(N)), dev.put(np.ones((N, 1))), dev.put(np.zeros((N, 1))), dev.info(N)
    for fn, regular, args in (
        (hipsolver.hipsolverDnDDgels_bufferSize, hipsolver.hipsolverDDgels_bufferSize, (N, N, 1, dA, N, dB, N, dX, N)),
        (hipsolver.hipsolverDnDDgesv_bufferSize, hipsolver.hipsolverDDgesv_bufferSize,
         (N, 1, dA, N, ipiv, dB, N, dX, N)),
    ):
        want = check(regular(handle, *args))
        lwork = ctypes.c_size_t(0)
        check(fn(handle, *args, 12345, lwork))  # any work: hipSOLVER does not look at it
        assert lwork.value == want == check(fn(handle, *args, None)) == check(fn(handle, *args, work=dX)) > 0


def test_handle_and_jacobi_helpers(handle, dev):
    stream = check(hip.hipStreamCreate())
    check(hipsolver.hipsolverDnSetStream(handle, streamId=stream))
    ref = ctypes.c_void_p()
    check(hipsolver.hipsolverDnGetStream(handle, ref))
    assert ref.value == int(stream)
    check(hipsolver.hipsolverDnSetStream(handle, None))
    check(hip.hipStreamDestroy(stream))
    info = check(hipsolver.hipsolverDnCreateSyevjInfo())
    check(hipsolver.hipsolverDnXsyevjSetMaxSweeps(info=info, max_sweeps=9))
    assert hipsolver._params(info, "params").max_sweeps == 9
    assert hipsolver.hipsolverDnXsyevjGetSweeps(handle, info) == (S.HIPSOLVER_STATUS_INTERNAL_ERROR, None)
    check(hipsolver.hipsolverDestroySyevjInfo(info))  # objects are the regular API's
    assert hipsolver.hipsolverDnDestroySyevjInfo(info) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)
    with pytest.raises(TypeError, match=r"hipsolverDnXgesvdjSetTolerance\(\)"):
        hipsolver.hipsolverDnXgesvdjSetTolerance(None, 1e-3, 7)


# --- the parameters object and the 64-bit generic LU --------------------------------------------------------------


@pytest.fixture
def params() -> Iterator[Any]:
    p = check(hipsolver.hipsolverDnCreateParams())
    yield p
    check(hipsolver.hipsolverDnDestroyParams(p))


def test_params_functions():
    ref = ctypes.c_void_p()
    check(hipsolver.hipsolverDnCreateParams(ref))
    found = find(ref, hipsolver.hipsolverDnParams_t)
    assert found is not None and found.target == DnParams()  # HIPSOLVERDN_GETRF, HIPSOLVER_ALG_0
    F, A = hipsolver.hipsolverDnFunction_t, hipsolver.hipsolverAlgMode_t
    assert hipsolver.hipsolverDnSetAdvOptions(ref, F.HIPSOLVERDN_GETRF, A.HIPSOLVER_ALG_1) == (
        S.HIPSOLVER_STATUS_NOT_SUPPORTED,)
    assert hipsolver.hipsolverDnSetAdvOptions(None, func=F.HIPSOLVERDN_GETRF, alg=A.HIPSOLVER_ALG_0) == (
        S.HIPSOLVER_STATUS_NOT_SUPPORTED,)
    with pytest.raises(TypeError, match="_hipsolverAlgMode_t__Base"):
        hipsolver.hipsolverDnSetAdvOptions(ref, F.HIPSOLVERDN_GETRF, 231)
    check(hipsolver.hipsolverDnDestroyParams(params=ref))
    assert hipsolver.hipsolverDnDestroyParams(ref) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)
    assert hipsolver.hipsolverDnDestroyParams(None) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)
    assert hipsolver.hipsolverDnCreateParams(None) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)


def test_xgetrf_buffer_size(handle, params, dev):
    dA = dev.put(np.eye(N))
    device, on_host = ctypes.c_size_t(7), ctypes.c_size_t(7)
    check(hipsolver.hipsolverDnXgetrf_bufferSize(handle, params, N, N, T.HIP_R_64F, dA, N, T.HIP_R_64F, device,
                                                 on_host))
    assert on_host.value == 0 and device.value == check(hipsolver.hipsolverDnXgetrf_bufferSize(
        handle, params, N, N, T.HIP_R_64F, dA, N, T.HIP_R_64F))[0]
    # hipSOLVER's order: handle, params, the outputs (then zeroed), the types, the sizes
    bad = (S.HIPSOLVER_STATUS_INVALID_VALUE,)
    x = hipsolver.hipsolverDnXgetrf_bufferSize
    assert x(None, None, N, N, T.HIP_R_16F, dA, N, T.HIP_R_64F, None, None) == (S.HIPSOLVER_STATUS_NOT_INITIALIZED,)
    assert x(handle, None, N, N, T.HIP_R_16F, dA, N, T.HIP_R_64F, None, None) == bad
    assert x(handle, params, N, N, T.HIP_R_16F, dA, N, T.HIP_R_64F, device, None) == bad
    device.value = on_host.value = 7
    assert x(handle, params, -1, N, T.HIP_R_32F, dA, N, T.HIP_R_64F, device, on_host) == (
        S.HIPSOLVER_STATUS_INVALID_ENUM,)
    assert (device.value, on_host.value) == (0, 0)
    assert x(handle, params, -1, N, T.HIP_C_32F, dA, N, T.HIP_C_32F, device, on_host) == bad
    with pytest.raises(TypeError, match="_hipDataType__Base"):
        x(handle, params, N, N, 1, dA, N, T.HIP_R_64F)
    with pytest.raises(OverflowError, match="'m'"):
        x(handle, params, 2**63, N, T.HIP_R_64F, dA, N, T.HIP_R_64F)
    assert x(handle, params, 2**31, 1, T.HIP_R_64F, dA, 2**31, T.HIP_R_64F)[0] == SUCCESS  # int64_t sizes


def test_xgetrf_xgetrs_against_scipy(handle, params, dev):
    """64-bit generic LU: int64 pivots, an int info (the next 4 bytes untouched), bitwise the regular getrf's LU; a
    given workspace or the handle's; no pivoting with a NULL devIpiv; the solve as SciPy's."""
    A, B = rand("D", N, N, seed=30) + np.eye(N), rand("D", N, NRHS, seed=31)
    dA, dA2, dB = dev.put(A), dev.put(A), dev.put(B)
    ipiv64, ipiv32, info = dev.put(np.zeros(N, np.int64)), dev.put(np.zeros(N, np.int32)), dev.info(2)
    lwork = check(hipsolver.hipsolverDnXgetrf_bufferSize(handle, params, N, N, T.HIP_R_64F, dA, N, T.HIP_R_64F))[0]
    work = dev.put(np.zeros(max(lwork, 1), np.uint8))
    check(hipsolver.hipsolverDnXgetrf(handle, params, N, N, T.HIP_R_64F, dA, N, ipiv64, T.HIP_R_64F, work, lwork,
                                      None, 0, info))
    check(hipsolver.hipsolverDgetrf(handle, N, N, dA2, N, None, 0, ipiv32, dev.info()))
    lu, piv = sla.lu_factor(A)
    assert host(dA, (N, N), np.float64).tobytes() == host(dA2, (N, N), np.float64).tobytes()
    np.testing.assert_allclose(host(dA, (N, N), np.float64), lu, rtol=1e-13, atol=1e-14)
    np.testing.assert_array_equal(host(ipiv64, (N,), np.int64), piv + 1)
    np.testing.assert_array_equal(host(info, (2,), np.int32), [0, -7])
    check(hipsolver.hipsolverDnXgetrs(handle=handle, params=params, trans=OP.HIPBLAS_OP_N, n=N, nrhs=NRHS,
                                      dataTypeA=T.HIP_R_64F, A=dA, lda=N, devIpiv=ipiv64, dataTypeB=T.HIP_R_64F, B=dB,
                                      ldb=N, devInfo=info))
    np.testing.assert_allclose(host(dB, (N, NRHS), np.float64), sla.lu_solve((lu, piv), B), rtol=1e-12)
    assert host(info, (1,), np.int32)[0] == 0
    # a singular matrix: info is the first zero pivot; without pivots (a column-dominant matrix: the LU needs none)
    check(hipsolver.hipsolverDnXgetrf(handle, params, 3, 3, T.HIP_R_64F, dev.put(np.zeros((3, 3))), 3, ipiv64,
                                      T.HIP_R_64F, None, 0, None, 0, info))
    assert host(info, (2,), np.int32).tolist() == [1, -7]
    D = np.asfortranarray(rand("D", N, N, seed=32) + 10 * np.eye(N))
    dD = dev.put(D)
    check(hipsolver.hipsolverDnXgetrf(handle, params, N, N, T.HIP_R_64F, dD, N, None, T.HIP_R_64F, None, 0, None, 0,
                                      info))
    lu_d, piv_d = sla.lu_factor(D)
    assert (piv_d == np.arange(N)).all()
    np.testing.assert_allclose(host(dD, (N, N), np.float64), lu_d, rtol=1e-13, atol=1e-14)
    # the given workspace served that call only: the handle sizes its own again
    assert hipsolver.hipsolverDnDgetrf(handle, N, N, dev.put(A), N, None, ipiv32, info) == (SUCCESS,)


def test_xgetrf_xgetrs_statuses_in_hipsolvers_order(handle, params, dev):
    dA, dB, ipiv, info = dev.put(np.eye(N)), dev.put(np.ones((N, 1))), dev.put(np.zeros(N, np.int64)), dev.info()
    R64, R32, C64 = T.HIP_R_64F, T.HIP_R_32F, T.HIP_C_64F
    bad, enum = (S.HIPSOLVER_STATUS_INVALID_VALUE,), (S.HIPSOLVER_STATUS_INVALID_ENUM,)
    f, s = hipsolver.hipsolverDnXgetrf, hipsolver.hipsolverDnXgetrs
    # handle, params, then (no workspace given) the types, the sizes, the pointers
    assert f(None, None, N, N, R32, dA, N, ipiv, R64, None, 0, None, 0, info) == (S.HIPSOLVER_STATUS_NOT_INITIALIZED,)
    assert f(handle, None, -1, N, R32, dA, N, ipiv, R64, None, 0, None, 0, info) == bad
    assert f(handle, params, -1, N, R32, dA, N, ipiv, R64, None, 0, None, 0, info) == enum
    assert f(handle, params, N, N, T.HIP_R_16F, dA, N, ipiv, T.HIP_R_16F, None, 0, None, 0, info) == enum
    assert f(handle, params, N, N, R64, dA, N - 1, ipiv, R64, None, 0, None, 0, info) == bad
    assert f(handle, params, N, N, R64, dA, N, ipiv, R64, None, 0, None, 0, None) == bad
    # with a workspace: rocblas_set_workspace first (a handle that is not one), then the types
    work = dev.put(np.zeros(64, np.uint8))
    assert f(12345, params, N, N, R32, dA, N, ipiv, R64, work, 64, None, 0, info) == (
        S.HIPSOLVER_STATUS_NOT_INITIALIZED,)
    assert f(12345, params, N, N, R32, dA, N, ipiv, R64, None, 0, None, 0, info) == enum
    assert f(handle, params, N, N, R32, dA, N, ipiv, R64, work, 64, None, 0, info) == enum
    np.testing.assert_array_equal(host(dA, (N, N), np.float64), np.eye(N))
    # getrs: handle, params, the two types, the sizes, then devInfo (zeroed), then the arrays
    nop = OP.HIPBLAS_OP_N
    assert s(None, None, nop, N, 1, R64, dA, N, ipiv, C64, dB, N, info) == (S.HIPSOLVER_STATUS_NOT_INITIALIZED,)
    assert s(handle, None, nop, N, 1, R64, dA, N, ipiv, C64, dB, N, info) == bad
    assert s(handle, params, nop, -1, 1, R64, dA, N, ipiv, C64, dB, N, info) == enum
    assert s(handle, params, nop, N, 1, R64, dA, N, ipiv, R64, dB, N - 1, None) == bad
    assert s(handle, params, nop, N, 1, R64, dA, N, ipiv, R64, dB, N, None) == bad
    assert host(info, (1,), np.int32)[0] == -7
    assert s(handle, params, nop, N, 1, R64, dA, N, None, R64, dB, N, info) == bad
    assert host(info, (1,), np.int32)[0] == 0  # zeroed before rocSOLVER found the NULL pivots
    with pytest.raises(TypeError, match="_hipblasOperation_t__Base"):
        s(handle, params, 111, N, 1, R64, dA, N, ipiv, R64, dB, N, info)
    with pytest.raises(OverflowError, match="'lworkOnDevice'"):
        f(handle, params, N, N, R64, dA, N, ipiv, R64, None, -1, None, 0, info)


# --- gesvdaStridedBatched: rocSOLVER's gesvdx_notransv_strided_batched -----------------------------------------------


def _gesvda_layout(letter: str, a: np.ndarray, rank: int) -> dict[str, Any]:
    """Strided operands with padding: A (lda = m + 1, one more element between entries), S (rank + 1 apart),
    U (ldu = m + 2), V (ldv = n + 1: n x rank columns)."""
    batch, m, n = a.shape
    lda, ldu, ldv = m + 1, m + 2, n + 1
    lay = dict(m=m, n=n, rank=rank, batch_count=batch, lda=lda, strideA=lda * n + 1, ldu=ldu, strideU=ldu * rank,
               ldv=ldv, strideV=ldv * rank, strideS=rank + 1)
    flat = np.zeros(lay["strideA"] * batch, DTYPE[letter])
    for e in range(batch):
        for j in range(n):
            flat[e * lay["strideA"] + j * lda:][:m] = a[e, :, j]
    lay["A_host"] = flat
    return lay


def _entries(flat: np.ndarray, rows: int, cols: int, ld: int, stride: int, batch: int) -> np.ndarray:
    return np.stack([np.stack([flat[e * stride + j * ld:][:rows] for j in range(cols)], axis=1) for e in range(batch)])


def test_gesvda_strided_batched(handle, dev):
    """The rank largest singular values (SciPy's), U (m x rank) and V (n x rank, not transposed) with A V = U S, on a
    given work or the handle's (bitwise the same), devInfo 0, hRnrmF untouched; the query's answer; statuses in
    hipSOLVER's order."""
    rank, batch = 2, 2
    novector = hipsolver.hipsolverEigMode_t.HIPSOLVER_EIG_MODE_NOVECTOR
    for letter in "SDCZ":
        dt, real = DTYPE[letter], np.float32 if letter in "SC" else np.float64
        eps = np.finfo(real).eps
        a = rand(letter, batch, 6, 4, seed=40)
        lay = _gesvda_layout(letter, a, rank)
        m, n = lay["m"], lay["n"]
        query = getattr(hipsolver, f"hipsolverDn{letter}gesvdaStridedBatched_bufferSize")
        run = getattr(hipsolver, f"hipsolverDn{letter}gesvdaStridedBatched")
        shape = {k: lay[k] for k in ("rank", "m", "n", "lda", "strideA", "strideS", "ldu", "strideU", "ldv",
                                     "strideV", "batch_count")}
        lwork = ctypes.c_int(-1)
        check(query(handle, VECTOR, A=None, S=None, U=None, V=None, lwork=lwork, **shape))
        # rocSOLVER's own query, then nsv (an int per entry) and ifail (min(m, n) per entry), each rounded to 64
        h = hipsolver._handle(handle)
        h.start_device_memory_size_query()
        getattr(gesvdx, f"{letter.lower()}gesvdx_notransv_strided_batched")(
            h, 192, 192, 263, m, n, None, lay["lda"], lay["strideA"], 0, 0, 1, rank, None, None, lay["strideS"], None,
            lay["ldu"], lay["strideU"], None, lay["ldv"], lay["strideV"], None, n, None, batch)
        roc = h.stop_device_memory_size_query()
        assert lwork.value == -(-roc // 64) * 64 + 64 + 64 > 128
        assert query(handle, VECTOR, **shape, A=None, S=None, U=None, V=None) == (SUCCESS, lwork.value)
        results = []
        for work in (dev.put(np.zeros(lwork.value, np.uint8)), None):
            dA = dev.put(lay["A_host"])
            dS = dev.put(np.full(lay["strideS"] * batch, -1, real))
            U = dev.put(np.full(lay["strideU"] * batch, 5, dt))
            V = dev.put(np.full(lay["strideV"] * batch, 5, dt))
            info, rnrm = dev.info(batch + 1), np.full(batch, -1.0)
            check(run(handle, VECTOR, A=dA, S=dS, U=U, V=V, work=work, lwork=lwork.value if work else 0, devInfo=info,
                      hRnrmF=rnrm, **shape))
            assert host(info, (batch + 1,), np.int32).tolist() == [0] * batch + [-7]
            assert (rnrm == -1).all()  # hipSOLVER on AMD never writes hRnrmF
            s_flat = host(dS, (lay["strideS"] * batch,), real)
            u_flat, v_flat = host(U, (lay["strideU"] * batch,), dt), host(V, (lay["strideV"] * batch,), dt)
            results.append((s_flat.tobytes(), u_flat.tobytes(), v_flat.tobytes()))
            s = np.stack([s_flat[e * lay["strideS"]:][:rank] for e in range(batch)])
            assert (s_flat.reshape(batch, rank + 1)[:, rank] == -1).all()  # the gap between entries
            u = _entries(u_flat, m, rank, lay["ldu"], lay["strideU"], batch)
            v = _entries(v_flat, n, rank, lay["ldv"], lay["strideV"], batch)
            for e in range(batch):
                x = a[e].astype(np.complex128)
                ref = np.linalg.svd(x, compute_uv=False)[:rank]
                np.testing.assert_allclose(s[e], ref, rtol=30 * 6 * eps)
                resid = np.abs(x @ v[e] - u[e] * s[e]).sum(axis=0).max() / (np.abs(x).sum(axis=0).max() * 6 * eps)
                assert resid < 30
                for q in (u[e], v[e]):
                    assert np.abs(np.eye(rank) - q.conj().T @ q).sum(axis=0).max() / (6 * eps) < 30
        assert results[0] == results[1]
        # without vectors: S only, U and V untouched (ldu and ldv only >= 1)
        dA, dS, U, info = dev.put(lay["A_host"]), dev.put(np.zeros(lay["strideS"] * batch, real)), dev.put(
            np.full(3, 5, dt)), dev.info(batch)
        check(run(handle, novector, **{**shape, "ldu": 1, "ldv": 1}, A=dA, S=dS, U=U, V=U, work=None, lwork=0,
                  devInfo=info, hRnrmF=None))
        np.testing.assert_allclose(host(dS, (lay["strideS"] * batch,), real).reshape(batch, rank + 1)[:, :rank],
                                   [np.linalg.svd(x, compute_uv=False)[:rank] for x in a], rtol=30 * 6 * eps)
        assert (host(U, (3,), dt) == 5).all() and not host(info, (batch,), np.int32).any()

    # statuses, hipSOLVER's order: the handle (NULL, then, in the query, the lwork pointer), then rocSOLVER's checks
    a = rand("D", 1, 3, 3, seed=41)
    lay = _gesvda_layout("D", a, 2)
    shape = {k: lay[k] for k in ("rank", "m", "n", "lda", "strideA", "strideS", "ldu", "strideU", "ldv", "strideV",
                                 "batch_count")}
    dA, dS, info = dev.put(lay["A_host"]), dev.put(np.zeros(4)), dev.info()
    UV = dev.put(np.zeros(16))
    bad, args = (S.HIPSOLVER_STATUS_INVALID_VALUE,), dict(A=dA, S=dS, U=UV, V=UV, devInfo=info, hRnrmF=None)
    run, query = hipsolver.hipsolverDnDgesvdaStridedBatched, hipsolver.hipsolverDnDgesvdaStridedBatched_bufferSize
    q = dict(A=dA, S=dS, U=UV, V=UV)
    assert run(None, VECTOR, **shape, work=None, lwork=0, **{**args, "devInfo": None}) == (
        S.HIPSOLVER_STATUS_NOT_INITIALIZED,)
    assert query(None, VECTOR, **shape, **q, lwork=None) == (S.HIPSOLVER_STATUS_NOT_INITIALIZED,)
    assert query(handle, VECTOR, **{**shape, "rank": 9}, **q, lwork=None) == bad  # NULL lwork before the sizes
    lwork = ctypes.c_int(-1)
    assert query(handle, VECTOR, **{**shape, "rank": 4}, **q, lwork=lwork) == bad and lwork.value == 0
    for change in (dict(rank=4), dict(rank=0), dict(ldv=2), dict(ldu=2), dict(lda=2)):
        assert run(handle, VECTOR, **{**shape, **change}, work=None, lwork=0, **args) == bad, change
    assert run(handle, VECTOR, **shape, work=None, lwork=0, **{**args, "devInfo": None}) == bad
    assert run(handle, VECTOR, **shape, work=None, lwork=0, **{**args, "V": None}) == bad
    assert host(info, (1,), np.int32)[0] == -7
    with pytest.raises(TypeError, match="_hipsolverEigMode_t__Base"):
        run(handle, 202, **shape, work=None, lwork=0, **args)
    with pytest.raises(OverflowError, match="'strideA'"):
        run(handle, VECTOR, **{**shape, "strideA": 2**63}, work=None, lwork=0, **args)
