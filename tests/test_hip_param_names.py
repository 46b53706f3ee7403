"""Parameter names of rocmath.hip's functions where the headers hip-python 6.2 is generated from depart from
the names elsewhere in the same library (hip-python's functions take keyword arguments too, so a program
calling ``hipblasChemm(..., n=3, k=2, ...)`` or ``hipsparseScsr2dense(..., csr_val=...)`` depends on them)."""

from __future__ import annotations

import ctypes
import inspect

import numpy as np
import pytest

from rocmath.hip import hip, hipblas, hipfft, hipsolver, hipsparse

#: Function -> its parameters in hip-python 6.2 (trailing out-parameters that hip-python returns are omitted
#: there and optional here).
EXPECTED = {
    hipblas: {
        "hipblasChemm": "handle side uplo n k alpha AP lda BP ldb beta CP ldc",
        "hipblasZhemmStridedBatched_64": "handle side uplo n k alpha AP lda strideA BP ldb strideB beta CP ldc "
                                         "strideC batchCount",
        "hipblasStbmv": "handle uplo transA diag n k AP lda x incx",
        "hipblasDgemvStridedBatched": "handle transA m n alpha AP lda strideA x incx stridex beta y incy stridey "
                                      "batchCount",
        "hipblasDgemvBatched": "handle trans m n alpha AP lda x incx beta y incy batchCount",
        "hipblasSsyr2k": "handle uplo transA n k alpha AP lda BP ldb beta CP ldc",
        "hipblasCherkxBatched": "handle uplo transA n k alpha AP lda BP ldb beta CP ldc batchCount",
        "hipblasStrmm": "handle side uplo transA diag m n alpha A lda B ldb C ldc",
        "hipblasDtrtriStridedBatched": "handle uplo diag n AP lda strideA invA ldinvA stride_invA batchCount",
        "hipblasRotEx": "handle n x xType incx y yType incy c s csType executionType",
    },
    hipsolver: {
        "hipsolverDsyevd": "handle jobz uplo n A lda D work lwork devInfo",
        "hipsolverZheevd_bufferSize": "handle jobz uplo n A lda D lwork",
        "hipsolverSsyevj": "handle jobz uplo n A lda W work lwork devInfo params",
    },
    hipsparse: {
        "hipsparseScsr2dense": "handle m n descr csr_val csr_row_ptr csr_col_ind A ld",
        "hipsparseDcsc2dense": "handle m n descr csc_val csc_row_ind csc_col_ptr A ld",
        "hipsparseCdense2csr": "handle m n descr A ld nnz_per_rows csr_val csr_row_ptr csr_col_ind",
        "hipsparseZdense2csc": "handle m n descr A ld nnz_per_columns csc_val csc_row_ind csc_col_ptr",
        "hipsparseScsr2gebsr_bufferSize": "handle dir m n csr_descr csr_val csr_row_ptr csr_col_ind row_block_dim "
                                          "col_block_dim p_buffer_size",
        "hipsparseXcsr2gebsrNnz": "handle dir m n csr_descr csr_row_ptr csr_col_ind bsr_descr bsr_row_ptr "
                                  "row_block_dim col_block_dim bsr_nnz_devhost p_buffer",
        "hipsparseDcsr2gebsr": "handle dir m n csr_descr csr_val csr_row_ptr csr_col_ind bsr_descr bsr_val "
                               "bsr_row_ptr bsr_col_ind row_block_dim col_block_dim p_buffer",
        "hipsparseCgebsr2gebsc": "handle mb nb nnzb bsr_val bsr_row_ptr bsr_col_ind row_block_dim col_block_dim "
                                 "bsc_val bsc_row_ind bsc_col_ptr copy_values idx_base temp_buffer",
        "hipsparseSgebsr2gebsr_bufferSize": "handle dirA mb nb nnzb descrA bsrValA bsrRowPtrA bsrColIndA "
                                            "rowBlockDimA colBlockDimA rowBlockDimC colBlockDimC bufferSize",
        "hipsparseSgtsv2_bufferSizeExt": "handle m n dl d du B ldb pBufferSizeInBytes",
        "hipsparseDgtsv2_bufferSizeExt": "handle m n dl d du B db pBufferSizeInBytes",
        "hipsparseDgtsv2_nopivot_bufferSizeExt": "handle m n dl d du B db pBufferSizeInBytes",
        "hipsparseZgtsv2_nopivot_bufferSizeExt": "handle m n dl d du B ldb pBufferSizeInBytes",
        "hipsparseCooSetPointers": "spMatDescr cooRowInd cooColInd cooValues",
        "hipsparseCsr2cscEx2_bufferSize": "handle m n nnz csrVal csrRowPtr csrColInd cscVal cscColPtr cscRowInd "
                                          "valType copyValues idxBase alg bufferSize",
    },
}
CASES = [(m, name, params) for m, table in EXPECTED.items() for name, params in table.items()]


@pytest.mark.parametrize(("module", "name", "params"), CASES, ids=[c[1] for c in CASES])
def test_parameter_names_are_hip_pythons(module, name, params) -> None:
    assert list(inspect.signature(getattr(module, name)).parameters)[:len(params.split())] == params.split()


def _upload(a: np.ndarray):
    p = hip.hipMalloc(max(a.nbytes, 1))[1]
    hip.hipMemcpy(p, a, a.nbytes, hip.hipMemcpyKind.hipMemcpyHostToDevice)
    return p


def _download(p, like: np.ndarray) -> np.ndarray:
    out = np.empty_like(like)
    hip.hipMemcpy(out, p, out.nbytes, hip.hipMemcpyKind.hipMemcpyDeviceToHost)
    return out


def test_keyword_calls() -> None:
    # hemm with hipBLAS's n (rows of C) and k (columns), by keyword.
    n, k = 3, 2
    rng = np.random.default_rng(3)
    a = rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))
    a = np.asfortranarray((a + a.conj().T).astype(np.complex64))
    b = np.asfortranarray(rng.standard_normal((n, k)).astype(np.complex64))
    c = np.zeros((n, k), np.complex64, order="F")
    da, db, dc = _upload(a), _upload(b), _upload(c)
    h = hipblas.hipblasCreate()[1]
    one, zero = (ctypes.c_float * 2)(1, 0), (ctypes.c_float * 2)(0, 0)
    status = hipblas.hipblasChemm(handle=h, side=hipblas.hipblasSideMode_t.HIPBLAS_SIDE_LEFT,
                                  uplo=hipblas.hipblasFillMode_t.HIPBLAS_FILL_MODE_UPPER, n=n, k=k,
                                  alpha=ctypes.addressof(one), AP=da, lda=n, BP=db, ldb=n,
                                  beta=ctypes.addressof(zero), CP=dc, ldc=n)
    assert status == (hipblas.hipblasStatus_t.HIPBLAS_STATUS_SUCCESS,)
    np.testing.assert_allclose(_download(dc, c), a @ b, rtol=1e-5)
    hipblas.hipblasDestroy(h)
    # csr2dense with hipsparse.h's snake-case names, by keyword.
    dense = np.array([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]], np.float32)
    val, ptr, ind = np.array([1, 2, 3], np.float32), np.array([0, 2, 3], np.int32), np.array([0, 2, 2], np.int32)
    dv, dp, di = _upload(val), _upload(ptr), _upload(ind)
    out = np.zeros((2, 3), np.float32, order="F")
    dout = _upload(out)
    hs = hipsparse.hipsparseCreate()[1]
    descr = hipsparse.hipsparseCreateMatDescr()[1]
    status = hipsparse.hipsparseScsr2dense(handle=hs, m=2, n=3, descr=descr, csr_val=dv, csr_row_ptr=dp,
                                           csr_col_ind=di, A=dout, ld=2)
    assert status == (hipsparse.hipsparseStatus_t.HIPSPARSE_STATUS_SUCCESS,)
    np.testing.assert_array_equal(_download(dout, out), dense)
    hipsparse.hipsparseDestroyMatDescr(descr)
    hipsparse.hipsparseDestroy(hs)
    for p in (da, db, dc, dv, dp, di, dout):
        hip.hipFree(p)


_MAKERS = ("Create", "create", "Malloc", "Plan", "Init", "Alloc")


@pytest.mark.parametrize("module", [hip, hipblas, hipsparse, hipsolver, hipfft],
                         ids=lambda m: m.__name__.rsplit(".", 1)[1])
def test_every_function_takes_keyword_arguments(module) -> None:
    # Called with every parameter by keyword (None: each call then fails on its values, after binding them), no
    # function refuses the keywords themselves.  Functions that make objects are left out (None would make one).
    from rocmath.memory import address_space

    live = address_space.live_count
    refused = []
    for name in dir(module):
        fn = getattr(module, name)
        if not name.startswith("hip") or isinstance(fn, type) or not callable(fn) or any(w in name for w in _MAKERS):
            continue
        try:
            params = inspect.signature(fn).parameters.values()
        except (TypeError, ValueError):
            continue
        if not params or any(p.kind is p.VAR_POSITIONAL for p in params):
            continue
        try:
            fn(**{p.name: None for p in params})
        except TypeError as exc:
            if any(w in str(exc) for w in ("unexpected", "takes", "missing", "positional argument")):
                refused.append(f"{name}: {exc}")
        except Exception:  # a failure on the values: the expected outcome
            pass
    assert not refused, refused[:5]
    assert address_space.live_count == live
