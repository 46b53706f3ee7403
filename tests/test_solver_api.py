"""The rocSOLVER binding machinery (solver/_api.py), on a toy routine written the way a family is.

``colsum`` stands for any rocSOLVER routine: an enum, sizes, a matrix, a non-matrix
output array with its own stride (``D``/``strideD``), workspace and ``info``.  It
writes ``D[j] = sum of column j of the uplo triangle of A`` (through the workspace)
and ``info`` = the number of all-zero columns (numerical data, never an exception).
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np
import pytest

import rocmath as rm
from rocmath import blas
from rocmath.errors import (
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
    RocblasMemoryError,
    RocblasStatus,
)
from rocmath.precision import D, Z
from rocmath.solver import Fill
from rocmath.solver._api import BATCHED, PLAIN, STRIDED, SolverCall, SolverRoutine, bind, public_names


class _Dims(NamedTuple):
    uplo: Fill
    n: int
    batch: int


def _check(c: SolverCall) -> _Dims:
    uplo = c.enum("uplo", Fill, (Fill.upper, Fill.lower))
    (n,) = c.sizes("n")
    c.lds(("lda", n))
    (batch,) = c.sizes("batch_count")
    return _Dims(uplo, n, batch)


def _workspace(c: SolverCall) -> int:
    return c.precision.itemsize * c.dims.n * c.dims.n * c.dims.batch


def _kernel(A: np.ndarray, D_: np.ndarray, info: np.ndarray, work: np.ndarray, upper: bool) -> None:
    nb, n, _ = A.shape
    staged = work[: nb * n * n].reshape(nb, n, n)
    staged[...] = np.triu(A) if upper else np.tril(A)
    D_[...] = staged.sum(axis=1)
    info[...] = (staged == 0).all(axis=1).sum(axis=1)


def _colsum(c: SolverCall) -> None:
    uplo, n, batch = c.dims
    c.require("A", "D", when=n > 0)
    c.require("info", when=batch > 0)
    if batch == 0:
        return
    if n == 0:
        c.reset_info()
        return
    a = c.matrix("A", n, n, c.int("lda"))
    d = c.vector("D", n, writable=True)
    c.launch(_kernel, a, d, c.info(), c.workspace_buffer(c.dtype), uplo is Fill.upper)


COLSUM = SolverRoutine("colsum", ("uplo", "n", "A", "lda", "D", "info"), {"A": "lda"}, _colsum, check=_check,
                       workspace=_workspace, vectors={"D": "strideD"}, summary="Column sums of a triangle.")
dcolsum = bind(COLSUM, D)
zcolsum_batched = bind(COLSUM, Z, BATCHED)
dcolsum_strided_batched = bind(COLSUM, D, STRIDED)


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


def test_signatures_put_vector_strides_in_both_batched_flavours() -> None:
    def names(f: Any) -> list[str]:
        return list(inspect.signature(f).parameters)

    assert names(dcolsum) == ["handle", "uplo", "n", "A", "lda", "D", "info"]
    assert names(zcolsum_batched) == ["handle", "uplo", "n", "A", "lda", "D", "strideD", "info", "batch_count"]
    assert names(dcolsum_strided_batched) == ["handle", "uplo", "n", "A", "lda", "strideA", "D", "strideD", "info",
                                              "batch_count"]
    assert COLSUM.signature(PLAIN) == tuple(names(dcolsum))
    assert dcolsum.__name__ == "dcolsum" and dcolsum.__module__ == "rocmath.solver"
    assert public_names(globals()) == ["dcolsum", "dcolsum_strided_batched", "zcolsum_batched"]


def test_strided_call(handle: Any) -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 4, 4))
    a[1, :, 2] = 0
    da = rm.to_device(np.ascontiguousarray(a.transpose(0, 2, 1)))  # entries column-major
    d, info = rm.full(3 * 6, -1.0), rm.full(3, -1, np.int32)
    dcolsum_strided_batched(handle, "L", 4, da, 4, 16, d, 6, info, 3)
    got = d.get().reshape(3, 6)
    np.testing.assert_allclose(got[:, :4], np.tril(a).sum(axis=1))
    assert (got[:, 4:] == -1).all()  # the gap between entries of D is not touched
    assert info.get().tolist() == [0, 1, 0]


def test_batched_call_gathers_matrices_but_not_vectors(handle: Any) -> None:
    a = (np.arange(2 * 9).reshape(2, 3, 3) + 1j).astype(np.complex128)
    mats = [rm.to_device(np.asfortranarray(x)) for x in a]
    ptrs = rm.to_device(np.array([m.ptr for m in mats], dtype=np.uint64))
    d, info = rm.zeros(2 * 3, np.complex128), rm.zeros(2, np.int32)
    zcolsum_batched(handle, Fill.upper, 3, ptrs, 3, d, 3, info, 2)
    np.testing.assert_allclose(d.get().reshape(2, 3), np.triu(a).sum(axis=1))


def test_check_order_and_size_query(handle: Any) -> None:
    info = rm.zeros(1, np.int32)
    with pytest.raises(RocblasInvalidValueError) as err:
        dcolsum(handle, Fill.full, -1, None, 0, None, None)  # the enum first
    assert err.value.arg == "uplo" and err.value.index == 2
    with pytest.raises(RocblasInvalidSizeError) as err:
        dcolsum(handle, "U", 3, None, 2, None, None)  # then sizes
    assert err.value.arg == "lda"
    with pytest.raises(RocblasInvalidPointerError) as err:
        dcolsum(handle, "U", 3, 0, 3, 0, info)  # then pointers
    assert err.value.arg == "A"
    blas.start_device_memory_size_query(handle)
    try:
        with pytest.raises(RocblasInvalidSizeError):  # sizes are checked during a query ...
            dcolsum_strided_batched(handle, "U", 3, None, 3, 9, None, 3, None, -1)
        # ... pointers are not, and the workspace is reported.
        assert dcolsum_strided_batched(handle, "U", 3, None, 3, 9, None, 3, None, 5) is RocblasStatus.size_increased
        assert dcolsum(handle, "U", 0, None, 0, None, None) is RocblasStatus.size_unchanged
    finally:
        assert blas.stop_device_memory_size_query(handle) == -(-8 * 9 * 5 // 64) * 64


def test_quick_returns(handle: Any) -> None:
    info, a, d = rm.full(2, 7, np.int32), rm.zeros(9), rm.full(3, 5.0)
    dcolsum_strided_batched(handle, "U", 3, a, 3, 9, d, 3, None, 0)  # no entry: info is not needed
    assert d.get().tolist() == [5.0] * 3
    dcolsum_strided_batched(handle, "U", 0, None, 0, 9, None, 3, info, 2)  # empty: info := 0
    assert info.get().tolist() == [0, 0]


def test_workspace_comes_from_the_handle(handle: Any) -> None:
    h = blas.create_handle()
    ws = rm.malloc(256)
    try:
        blas.set_workspace(h, ws, 64)
        a, d, info = rm.zeros((3, 3), order="F"), rm.zeros(3), rm.zeros(1, np.int32)
        with pytest.raises(RocblasMemoryError):
            dcolsum(h, "U", 3, a, 3, d, info)  # needs 72 bytes
        blas.set_workspace(h, ws, 256)
        dcolsum(h, "U", 3, a, 3, d, info)
        assert info.get().tolist() == [3]  # three zero columns: data, not an error
    finally:
        blas.destroy_handle(h)
        rm.free(ws)


def test_call_operands_and_overlap(handle: Any) -> None:
    names = COLSUM.signature(BATCHED)
    values = dict(zip(names, (handle, "U", 4, 1 << 45, 4, 1 << 46, 0, 0, 3), strict=True))
    c = SolverCall("dcolsum_batched", COLSUM, D, BATCHED, names, values)
    assert c.matrix("A", 4, 4, 4).pointers  # matrices are pointer arrays in _batched ...
    d = c.vector("D", 4)
    assert not d.pointers and d.batch_stride == 0  # ... the routine's vectors are not
    assert c.overlapping(("D", 4)) and not c.overlapping(("A", 16))  # strideD = 0: entries share D
    values["strideD"] = 4
    assert not c.overlapping(("D", 4))
    values["x"] = 1 << 47
    assert c.vector("x", 4, 2).pointers  # other vectors follow rocBLAS (pointer arrays)
