"""hipSOLVER's orgbr/ungbr, orgtr/ungtr and ormtr/unmtr (with their ``_bufferSize``) as hip-python calls them,
over rocmath.solver.

Each call is checked against the rocmath.solver routine hipSOLVER's AMD backend calls (the same bits), after
the workspace query it makes (``lwork`` returned, or written through a ``ctypes.c_int``), with a given ``work``
and with the handle's own, by position and by keyword (hip-python 6.2's parameter names).  orgbr's ``side`` is
rocSOLVER's storev (left: Q, column-wise; right: P^H, row-wise); the statuses are hipSOLVER's: INVALID_ENUM for
a side or fill mode rocBLAS has not, INVALID_VALUE for rocSOLVER's size and pointer errors, NOT_INITIALIZED
for a null handle, a TypeError for a plain int where hip-python takes an enum.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hip_util import check, to_device, to_host

import rocmath.testing as rt
from rocmath import blas, solver
from rocmath.hip import hip, hipblas, hipsolver

S = hipsolver.hipsolverStatus_t
SIDE, FILL, OP = hipblas.hipblasSideMode_t, hipblas.hipblasFillMode_t, hipblas.hipblasOperation_t
LEFT, RIGHT, BOTH = SIDE.HIPBLAS_SIDE_LEFT, SIDE.HIPBLAS_SIDE_RIGHT, SIDE.HIPBLAS_SIDE_BOTH
UPPER, LOWER, FULL = FILL.HIPBLAS_FILL_MODE_UPPER, FILL.HIPBLAS_FILL_MODE_LOWER, FILL.HIPBLAS_FILL_MODE_FULL
DTYPE = {"S": np.float32, "D": np.float64, "C": np.complex64, "Z": np.complex128}
ROC = {"orgbr": "orgbr", "orgtr": "orgtr", "ormtr": "ormtr"}


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


def fn(letter: str, family: str, suffix: str = "") -> Any:
    op = hipsolver.FAMILIES[family].ops[letter]
    return getattr(hipsolver, f"hipsolver{letter}{op}{suffix}")


def reference(letter: str, family: str) -> Any:
    """The rocmath.solver routine hipSOLVER calls (ung*/unm* for complex)."""
    name = ROC[family]
    if letter in "CZ":
        name = "un" + name[2:]
    return getattr(solver, f"{letter.lower()}{name}")


def rand(letter: str, *shape: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, shape)
    if letter in "CZ":
        a = a + 1j * rng.uniform(-1, 1, shape)
    return np.asfortranarray(a.astype(DTYPE[letter]))


class Operands:
    """Host arrays on the device twice: hipMalloc'd for hipSOLVER, poisoned rocmath buffers for the reference."""

    def __init__(self, **arrays: tuple[np.ndarray, int]):
        self.host = {k: a for k, (a, _) in arrays.items()}
        self.hip = {k: to_device(np.asfortranarray(np.vstack([a, np.zeros((ld - a.shape[0], a.shape[1]), a.dtype)])))
                    for k, (a, ld) in arrays.items()}
        self.roc = {k: rt.poisoned_device_matrix(a, ld) for k, (a, ld) in arrays.items()}
        self.ld = {k: ld for k, (_, ld) in arrays.items()}

    def hip_result(self, name: str) -> np.ndarray:
        a, ld = self.host[name], self.ld[name]
        full = to_host(self.hip[name], np.zeros((ld, a.shape[1]), a.dtype, order="F"))
        return full[:a.shape[0]]

    def roc_result(self, name: str) -> np.ndarray:
        self.roc[name].check_untouched()
        return self.roc[name].get()

    def free(self) -> None:
        for p in self.hip.values():
            check(hip.hipFree(p))
        for m in self.roc.values():
            m.close()


def info_array() -> Any:
    return to_device(np.full(1, -7, np.int32))  # not zero: hipSOLVER must zero it


def run(handle: Any, roc_handle: Any, letter: str, family: str, enums: tuple[Any, ...], roc_enums: tuple[Any, ...],
        sizes: tuple[int, ...], ops: Operands, matrices: tuple[str, ...], how: str) -> None:
    """The query then the computation (``how``: given work / the handle's own workspace / keywords) against the
    reference on the other copy; compare the written matrix bit for bit."""
    args: list[Any] = [*enums, *sizes]
    roc_args: list[Any] = [*roc_enums, *sizes]
    for name in matrices:
        if name == "tau":
            args.append(ops.hip[name])
            roc_args.append(ops.roc[name].ptr)
        else:
            args += [ops.hip[name], ops.ld[name]]
            roc_args += [ops.roc[name].ptr, ops.ld[name]]
    query = fn(letter, family, "_bufferSize")
    if how == "ctypes":
        out = ctypes.c_int(-1)
        check(query(handle, *args, out))
        lwork = out.value
    else:
        lwork = check(query(handle, *args))
    blas.start_device_memory_size_query(roc_handle)
    reference(letter, family)(roc_handle, *roc_args)
    assert lwork == blas.stop_device_memory_size_query(roc_handle)
    info = info_array()
    work = check(hip.hipMalloc(max(lwork, 1)))
    try:
        f = fn(letter, family)
        if how == "keywords":
            params = hipsolver.FAMILIES[family].params.split()
            kwargs = dict(zip(params, [*args, work, lwork, info], strict=True))
            check(f(handle=handle, **dict(reversed(kwargs.items()))))
        elif how == "work":
            check(f(handle, *args, work, lwork, info))
        else:
            check(f(handle, *args, None, 0, info))
        assert to_host(info, np.zeros(1, np.int32))[0] == 0
    finally:
        check(hip.hipFree(work))
        check(hip.hipFree(info))
    reference(letter, family)(roc_handle, *roc_args)
    written = "C" if family == "ormtr" else "A"
    got, ref = ops.hip_result(written), ops.roc_result(written)
    assert got.tobytes() == np.asfortranarray(ref).tobytes()
    assert not np.array_equal(got, ops.host[written])  # something was computed


HOWS = ["work", "managed", "keywords", "ctypes"]


@pytest.mark.parametrize("letter", "SDCZ")
@pytest.mark.parametrize("side,m,n,k", [(LEFT, 6, 4, 4), (LEFT, 4, 4, 6), (RIGHT, 4, 6, 4), (RIGHT, 5, 5, 7)])
def test_orgbr(handle: Any, roc: Any, letter: str, side: Any, m: int, n: int, k: int) -> None:
    storev = solver.Storev.column_wise if side == LEFT else solver.Storev.row_wise
    for i, how in enumerate(HOWS):
        ops = Operands(A=(rand(letter, m, n, seed=i), m + 1), tau=(rand(letter, max(m, n), 1, seed=9) / 2, max(m, n)))
        try:
            run(handle, roc, letter, "orgbr", (side,), (storev,), (m, n, k), ops, ("A", "tau"), how)
        finally:
            ops.free()


@pytest.mark.parametrize("letter", "SDCZ")
@pytest.mark.parametrize("uplo", [UPPER, LOWER], ids=["upper", "lower"])
def test_orgtr(handle: Any, roc: Any, letter: str, uplo: Any) -> None:
    n = 5
    fill = solver.Fill.upper if uplo == UPPER else solver.Fill.lower
    for i, how in enumerate(HOWS):
        ops = Operands(A=(rand(letter, n, n, seed=i), n + 2), tau=(rand(letter, n, 1, seed=3) / 2, n))
        try:
            run(handle, roc, letter, "orgtr", (uplo,), (fill,), (n,), ops, ("A", "tau"), how)
        finally:
            ops.free()


@pytest.mark.parametrize("letter", "SDCZ")
@pytest.mark.parametrize("side,uplo,m,n", [(LEFT, UPPER, 5, 3), (RIGHT, LOWER, 3, 5), (LEFT, LOWER, 4, 4),
                                            (RIGHT, UPPER, 2, 4)])
def test_ormtr(handle: Any, roc: Any, letter: str, side: Any, uplo: Any, m: int, n: int) -> None:
    nq = m if side == LEFT else n
    roc_side = solver.Side.left if side == LEFT else solver.Side.right
    fill = solver.Fill.upper if uplo == UPPER else solver.Fill.lower
    for i, how in enumerate(HOWS):
        trans = OP.HIPBLAS_OP_N if i % 2 else (OP.HIPBLAS_OP_C if letter in "CZ" else OP.HIPBLAS_OP_T)
        ops = Operands(A=(rand(letter, nq, nq, seed=i), nq + 1), tau=(rand(letter, nq, 1, seed=5) / 2, nq),
                       C=(rand(letter, m, n, seed=10 + i), m + 2))
        try:
            run(handle, roc, letter, "ormtr", (side, uplo, trans), (roc_side, fill, solver.Operation(int(trans))),
                (m, n), ops, ("A", "tau", "C"), how)
        finally:
            ops.free()


def test_parameter_names_are_hip_pythons() -> None:
    import inspect

    def names(f: Any) -> str:
        return " ".join(inspect.signature(f).parameters)

    assert names(hipsolver.hipsolverSorgbr) == "handle side m n k A lda tau work lwork devInfo"
    assert names(hipsolver.hipsolverZungbr_bufferSize) == "handle side m n k A lda tau lwork"
    assert names(hipsolver.hipsolverDorgtr) == "handle uplo n A lda tau work lwork devInfo"
    assert names(hipsolver.hipsolverCungtr_bufferSize) == "handle uplo n A lda tau lwork"
    assert names(hipsolver.hipsolverCunmtr) == "handle side uplo trans m n A lda tau C ldc work lwork devInfo"
    assert names(hipsolver.hipsolverSormtr_bufferSize) == "handle side uplo trans m n A lda tau C ldc lwork"
    for name in ("hipsolverSungbr", "hipsolverCorgtr", "hipsolverDunmtr"):
        assert not hasattr(hipsolver, name) and name not in hipsolver.MANIFEST
    for name in ("hipsolverSorgbr", "hipsolverZungtr_bufferSize", "hipsolverCunmtr", "hipsolverDormtr_bufferSize"):
        assert name in hipsolver.MANIFEST and name in hipsolver.__all__


def test_statuses(handle: Any) -> None:
    n = 4
    a = rand("D", n, n, seed=1)
    dA, dT, dC, info = to_device(a), to_device(np.ones(n)), to_device(a), info_array()
    try:
        # hip2rocblas_side2storev / hip2rocblas_side / hip2rocblas_fill: no rocBLAS value for both or full
        assert hipsolver.hipsolverDorgbr(handle, BOTH, n, n, n, dA, n, dT, None, 0, info) == (
            S.HIPSOLVER_STATUS_INVALID_ENUM,)
        assert hipsolver.hipsolverSorgbr_bufferSize(handle, BOTH, n, n, n, dA, n, dT) == (
            S.HIPSOLVER_STATUS_INVALID_ENUM, None)
        assert hipsolver.hipsolverDorgtr(handle, FULL, n, dA, n, dT, None, 0, info) == (
            S.HIPSOLVER_STATUS_INVALID_ENUM,)
        assert hipsolver.hipsolverDormtr(handle, BOTH, LOWER, OP.HIPBLAS_OP_N, n, n, dA, n, dT, dC, n, None, 0,
                                         info) == (S.HIPSOLVER_STATUS_INVALID_ENUM,)
        assert hipsolver.hipsolverDormtr_bufferSize(handle, LEFT, FULL, OP.HIPBLAS_OP_N, n, n, dA, n, dT, dC,
                                                    n) == (S.HIPSOLVER_STATUS_INVALID_ENUM, None)
        # hip-python takes enums only
        with pytest.raises(TypeError, match="_hipblasSideMode_t__Base"):
            hipsolver.hipsolverDorgbr(handle, 141, n, n, n, dA, n, dT, None, 0, info)
        with pytest.raises(TypeError, match="_hipblasFillMode_t__Base"):
            hipsolver.hipsolverDorgtr_bufferSize(handle, 122, n, dA, n, dT)
        with pytest.raises(TypeError, match="_hipblasOperation_t__Base"):
            hipsolver.hipsolverDormtr(handle, LEFT, LOWER, 111, n, n, dA, n, dT, dC, n, None, 0, info)
        # rocSOLVER's size and pointer checks: INVALID_VALUE, nothing written
        assert hipsolver.hipsolverDorgbr(handle, LEFT, n, n + 1, n, dA, n, dT, None, 0, info) == (
            S.HIPSOLVER_STATUS_INVALID_VALUE,)  # column-wise: n > m
        assert hipsolver.hipsolverDorgbr_bufferSize(handle, RIGHT, n + 1, n, n, dA, n + 1, dT) == (
            S.HIPSOLVER_STATUS_INVALID_VALUE, None)  # row-wise: m > n
        assert hipsolver.hipsolverDorgtr(handle, UPPER, n, dA, n - 1, dT, None, 0, info) == (
            S.HIPSOLVER_STATUS_INVALID_VALUE,)
        assert hipsolver.hipsolverDormtr(handle, RIGHT, UPPER, OP.HIPBLAS_OP_T, n, n + 1, dA, n, dT, dC, n, None, 0,
                                         info) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)  # lda < nq = n + 1
        assert hipsolver.hipsolverDormtr(handle, LEFT, UPPER, OP.HIPBLAS_OP_C, n, n, dA, n, dT, dC, n, None, 0,
                                         info) == (S.HIPSOLVER_STATUS_INVALID_VALUE,)  # C for real: invalid_value
        assert hipsolver.hipsolverDorgtr(handle, UPPER, n, dA, n, None, None, 0, info) == (
            S.HIPSOLVER_STATUS_INVALID_VALUE,)  # tau NULL
        assert hipsolver.hipsolverDorgtr(handle, UPPER, n, dA, n, dT, None, 0, None) == (
            S.HIPSOLVER_STATUS_INVALID_VALUE,)  # devInfo NULL (hipsolverZeroInfo)
        np.testing.assert_array_equal(to_host(dA, np.zeros((n, n), order="F")), a)
        np.testing.assert_array_equal(to_host(dC, np.zeros((n, n), order="F")), a)
        assert hipsolver.hipsolverDorgbr(None, LEFT, n, n, n, dA, n, dT, None, 0, info) == (
            S.HIPSOLVER_STATUS_NOT_INITIALIZED,)
        assert hipsolver.hipsolverZunmtr_bufferSize(None, LEFT, LOWER, OP.HIPBLAS_OP_N, n, n, dA, n, dT, dC, n) == (
            S.HIPSOLVER_STATUS_NOT_INITIALIZED, None)
        with pytest.raises(OverflowError):
            hipsolver.hipsolverDorgtr(handle, UPPER, 2**31, dA, n, dT, None, 0, info)
        # empty problems: info zeroed, the matrices untouched, no workspace
        assert check(hipsolver.hipsolverDorgtr_bufferSize(handle, LOWER, 0, None, 1, None)) == 0
        check(hipsolver.hipsolverDorgtr(handle, LOWER, 0, dA, 1, dT, None, 0, info))
        assert to_host(info, np.zeros(1, np.int32))[0] == 0
        check(hip.hipMemcpy(info, np.array([-7], np.int32), 4, hip.hipMemcpyKind.hipMemcpyHostToDevice))
        check(hipsolver.hipsolverDormtr(handle, LEFT, UPPER, OP.HIPBLAS_OP_N, 0, n, None, 1, None, dC, 1, None, 0,
                                        info))
        assert to_host(info, np.zeros(1, np.int32))[0] == 0
        np.testing.assert_array_equal(to_host(dA, np.zeros((n, n), order="F")), a)
        np.testing.assert_array_equal(to_host(dC, np.zeros((n, n), order="F")), a)
    finally:
        for p in (dA, dT, dC, info):
            check(hip.hipFree(p))
