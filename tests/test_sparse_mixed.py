"""rocmath.sparse mixed precisions: the generic spmv / spmm type combinations rocSPARSE supports (and the
not_implemented of the others), and the ILU0 numeric boost with a double tolerance (``ds`` / ``dc``)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from test_sparse_level2 import margins_untouched, padded

import rocmath as rm
import rocmath.sparse as rs
from rocmath.precision import Precision
from rocmath.testing import assert_close

DT = rs.Datatype
I8, I32, F32, F64, C32, C64 = DT.i8_r, DT.i32_r, DT.f32_r, DT.f64_r, DT.f32_c, DT.f64_c
#: rocSPARSE's mixed spmv combinations (A, x, y, compute type).
SPMV_MIXED = [(I8, I8, I32, I32), (I8, I8, F32, F32), (F32, F64, F64, F64), (C32, C64, C64, C64),
              (F32, C32, C32, C32), (F64, C64, C64, C64)]
IDS = ["-".join(t.name for t in combo) for combo in SPMV_MIXED]


def values(rng: np.random.Generator, count: int, datatype: DT) -> np.ndarray:
    """Values of ``datatype``: small integers for int8 (their products and sums are exact in float32), else
    normal deviates rounded to the type."""
    dt = datatype.dtype
    if dt.kind == "i":
        return rng.integers(-9, 10, count).astype(dt)
    v = rng.standard_normal(count)
    if dt.kind == "c":
        v = v + 1j * rng.standard_normal(count)
    return v.astype(dt)


def matrix(rng: np.random.Generator, m: int, n: int, datatype: DT, density: float = 0.3) -> sp.csr_matrix:
    a = sp.random(m, n, density=density, format="csr", random_state=rng)
    a.data = values(rng, a.nnz, datatype)
    a.sort_indices()
    return a


def exact(a: np.ndarray | sp.spmatrix) -> np.ndarray | sp.spmatrix:
    """An operand widened to complex128: the reference computes exactly what each type holds."""
    return a.astype(np.complex128)


def descriptor(fmt: rs.Format, a: sp.csr_matrix, datatype: DT) -> tuple[rs.SpMatDescr, list]:
    """``a`` as a generic descriptor of ``fmt`` (int32 indices, base 0); the device arrays are kept alive."""
    m, n = a.shape
    i32 = rs.IndexType.i32
    if fmt is rs.Format.csr:
        keep = [rm.to_device(a.indptr.astype(np.int32)), rm.to_device(a.indices.astype(np.int32)),
                rm.to_device(a.data)]
        return rs.create_csr_descr(m, n, a.nnz, *keep, i32, i32, 0, datatype), keep
    if fmt is rs.Format.csc:
        t = a.tocsc()
        t.sort_indices()
        keep = [rm.to_device(t.indptr.astype(np.int32)), rm.to_device(t.indices.astype(np.int32)),
                rm.to_device(t.data)]
        return rs.create_csc_descr(m, n, a.nnz, *keep, i32, i32, 0, datatype), keep
    coo = a.tocoo()
    if fmt is rs.Format.coo:
        keep = [rm.to_device(coo.row.astype(np.int32)), rm.to_device(coo.col.astype(np.int32)),
                rm.to_device(coo.data)]
        return rs.create_coo_descr(m, n, a.nnz, *keep, i32, 0, datatype), keep
    if fmt is rs.Format.coo_aos:
        keep = [rm.to_device(np.stack([coo.row, coo.col], axis=1).ravel().astype(np.int32)), rm.to_device(coo.data)]
        return rs.create_coo_aos_descr(m, n, a.nnz, *keep, i32, 0, datatype), keep
    if fmt is rs.Format.ell:
        width = int(np.diff(a.indptr).max(initial=0))
        col = np.full((width, m), -1, np.int32)
        val = np.zeros((width, m), a.dtype)
        for i in range(m):
            s, e = a.indptr[i], a.indptr[i + 1]
            col[:e - s, i], val[:e - s, i] = a.indices[s:e], a.data[s:e]
        keep = [rm.to_device(col.ravel()), rm.to_device(val.ravel())]
        return rs.create_ell_descr(m, n, *keep, width, i32, 0, datatype), keep
    bsr = a.tobsr(blocksize=(2, 2))  # m and n even
    bsr.sort_indices()
    keep = [rm.to_device(bsr.indptr.astype(np.int32)), rm.to_device(bsr.indices.astype(np.int32)),
            rm.to_device(np.ascontiguousarray(bsr.data).ravel())]
    return rs.create_bsr_descr(m // 2, n // 2, bsr.indices.size, rs.Direction.row, 2, *keep, i32, i32, 0,
                               datatype), keep


def run_spmv(h, op, alpha, mat, x: np.ndarray, xt: DT, beta, y0: np.ndarray, yt: DT, ct: DT, alg=0):
    """spmv through its three stages; returns the (padded) device y."""
    y_full, y = padded(y0)
    X, Y = rs.create_dnvec_descr(x.size, rm.to_device(x), xt), rs.create_dnvec_descr(y0.size, y, yt)
    args = (h, op, alpha, mat, X, beta, Y, ct, alg)
    need = rs.spmv(*args, rs.SpMVStage.buffer_size)
    buf = rm.empty(need, np.uint8) if need else None
    rs.spmv(*args, rs.SpMVStage.preprocess, temp_buffer=buf)  # (buffer_size=None with no buf: invalid_pointer)
    rs.spmv(*args, rs.SpMVStage.compute, temp_buffer=buf)
    return y_full, y


@pytest.mark.parametrize("combo", SPMV_MIXED, ids=IDS)
def test_spmv_mixed_precisions_csr(combo):
    """Every mixed combination on a CSR matrix (y := alpha A x + beta y), host and device scalars: the result of
    the compute type's arithmetic on the values each type holds."""
    at, xt, yt, ct = combo
    p = Precision.from_datatype(ct.name)
    rng = np.random.default_rng(1)
    a = matrix(rng, 33, 17, at)
    x, y0 = values(rng, 17, xt), values(rng, 33, yt)
    h = rs.create_handle()
    mat, _keep = descriptor(rs.Format.csr, a, at)
    alpha, beta = (3, -2) if ct is I32 else (1.5, -0.5)
    expected = alpha * (exact(a) @ exact(x)) + beta * exact(y0)
    for device in (False, True):
        if device:
            rs.set_pointer_mode(h, rs.PointerMode.device)
            da, db = rm.to_device(np.array([alpha], p.dtype)), rm.to_device(np.array([beta], p.dtype))
            y_full, y = run_spmv(h, "N", da, mat, x, xt, db, y0, yt, ct)
        else:
            y_full, y = run_spmv(h, "N", float(alpha), mat, x, xt, float(beta), y0, yt, ct)
        got = y.get()
        assert got.dtype == yt.dtype
        if ct is I32:
            assert np.array_equal(got, expected.real.astype(np.int32))
        else:
            assert_close(got, (expected if p.is_complex else expected.real).astype(p.dtype), p, "reduction", 17)
        margins_untouched(y_full, y0.size)
    assert mat.data_type is at  # the matrix is read, never converted in place


def test_spmv_mixed_int32_wraps_around():
    """int8 products summed in int32 wrap around as rocSPARSE's int32 arithmetic does."""
    a = sp.csr_matrix(np.full((1, 300), -128, np.int8))
    x = np.full(300, -128, np.int8)
    h = rs.create_handle()
    mat, _keep = descriptor(rs.Format.csr, a, I8)
    _, y = run_spmv(h, "N", 1.0, mat, x, I8, 0.0, np.zeros(1, np.int32), I32, I32)
    assert y.get()[0] == np.int64(300 * 128 * 128).astype(np.int32)  # 4915200 fits; times 2 below does not
    _, y = run_spmv(h, "N", 1000.0, mat, x, I8, 0.0, np.zeros(1, np.int32), I32, I32)
    assert y.get()[0] == np.array(1000 * 300 * 128 * 128, np.int64).astype(np.int32)


FORMATS = [rs.Format.csc, rs.Format.coo, rs.Format.coo_aos, rs.Format.ell, rs.Format.bsr]
OPS = {rs.Operation.none: lambda a: a, rs.Operation.transpose: lambda a: a.T,
       rs.Operation.conjugate_transpose: lambda a: a.conj().T}


def check_formats(fmt: rs.Format, combo: tuple[DT, ...], ops: list[rs.Operation], m: int, n: int, seed: int) -> None:
    """spmv of ``combo``'s types on an ``m x n`` matrix of format ``fmt`` (BSR: operation none only) against the
    exact product of the values each type holds."""
    at, xt, yt, ct = combo
    p = Precision.from_datatype(ct.name)
    rng = np.random.default_rng(seed)
    a = matrix(rng, m, n, at, 0.3)
    h = rs.create_handle()
    mat, _keep = descriptor(fmt, a, at)
    alpha, beta = (2, 3) if ct is I32 else (2.0 - 1j if p.is_complex else 2.0, 0.5)
    for op in [rs.Operation.none] if fmt is rs.Format.bsr else ops:
        opa = OPS[op](a)
        x, y0 = values(rng, opa.shape[1], xt), values(rng, opa.shape[0], yt)
        _, y = run_spmv(h, op, alpha, mat, x, xt, beta, y0, yt, ct)
        expected = alpha * (exact(opa) @ exact(x)) + beta * exact(y0)
        if ct is I32:
            assert np.array_equal(y.get(), expected.real.astype(np.int32))
        else:
            assert_close(y.get(), (expected if p.is_complex else expected.real).astype(p.dtype), p, "reduction", m)


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
@pytest.mark.parametrize("combo", [(I8, I8, F32, F32), (F32, F64, F64, F64)], ids=["i8-f32", "f32-f64"])
def test_spmv_mixed_precisions_other_formats(fmt, combo):
    """The mixed combinations run on every spmv format, transposed too (the float kernels: no new compilation)."""
    check_formats(fmt, combo, [rs.Operation.none, rs.Operation.transpose], 12, 10, 2)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", [rs.Format.csr, *FORMATS], ids=lambda f: f.name)
@pytest.mark.parametrize("combo", SPMV_MIXED, ids=IDS)
def test_spmv_mixed_every_format_and_operation(fmt, combo):
    check_formats(fmt, combo, list(rs.Operation), 40, 26, 3)


#: Combinations rocSPARSE's spmv rejects (A, x, y, compute type).
SPMV_REJECTED = [(F64, F64, F64, F32), (F32, F32, F32, F64), (F64, F32, F32, F32), (I8, I8, F64, F64),
                 (I8, I8, I32, F32), (I8, I8, I8, I32), (F32, F64, F32, F64), (C64, C32, C32, C32),
                 (F32, C64, C64, C64), (C32, F32, F32, F32), (DT.u8_r, DT.u8_r, DT.u32_r, DT.u32_r),
                 (I32, I32, I32, I32)]


def test_spmv_rejects_other_type_combinations():
    h = rs.create_handle()
    for at, xt, yt, ct in SPMV_REJECTED:
        a = sp.csr_matrix(np.ones((2, 2), at.dtype))
        mat, _keep = descriptor(rs.Format.csr, a, at)
        x = rs.create_dnvec_descr(2, rm.zeros(2, xt.dtype), xt)
        y0 = np.full(2, 7, yt.dtype)
        yd = rm.to_device(y0)
        y = rs.create_dnvec_descr(2, yd, yt)
        for stage in rs.SpMVStage:
            with pytest.raises(rs.SparseNotImplementedError) as err:
                rs.spmv(h, "N", 1.0, mat, x, 0.0, y, ct, 0, stage)
            assert (err.value.arg, err.value.index) == ("compute_type", 8)
        assert np.array_equal(yd.get(), y0)


# --- spmm -----------------------------------------------------------------------------------------


def _dense(a: np.ndarray, datatype: DT, order: rs.Order) -> tuple[rs.DnMatDescr, rm.DeviceArray]:
    rows, cols = a.shape
    d = rm.to_device(np.ascontiguousarray(a if order is rs.Order.row else a.T).ravel())
    return rs.create_dnmat_descr(rows, cols, cols if order is rs.Order.row else rows, d, datatype, order), d


@pytest.mark.parametrize("ct", [I32, F32], ids=lambda t: t.name)
def test_spmm_int8_into_int32_and_float(ct):
    """int8 A and B into an int32 or float C, CSR and CSC, A and B transposed or not, row and column orders."""
    rng = np.random.default_rng(4)
    a = matrix(rng, 9, 7, I8, 0.4)
    h = rs.create_handle()
    cases = [(rs.Format.csr, rs.Operation.none, rs.Operation.none, rs.Order.column),
             (rs.Format.csc, rs.Operation.transpose, rs.Operation.transpose, rs.Order.column)]
    if ct is F32:  # the float kernels exist already: more shapes and orders cost no compilation
        cases += [(rs.Format.csr, rs.Operation.transpose, rs.Operation.none, rs.Order.row),
                  (rs.Format.csc, rs.Operation.none, rs.Operation.transpose, rs.Order.column)]
    for fmt, op_a, op_b, order in cases:
        mat, _keep = descriptor(fmt, a, I8)
        opa = a if op_a is rs.Operation.none else a.T
        opb = values(rng, opa.shape[1] * 3, I8).reshape(opa.shape[1], 3)
        B, _b = _dense(opb if op_b is rs.Operation.none else opb.T.copy(), I8, order)
        c0 = values(rng, opa.shape[0] * 3, ct).reshape(opa.shape[0], 3)
        Cm, c = _dense(c0, ct, order)
        args = (h, op_a, op_b, 2.0, mat, B, -1.0, Cm, ct, rs.SpMMAlg.default)
        need = rs.spmm(*args, rs.SpMMStage.buffer_size)
        rs.spmm(*args, rs.SpMMStage.compute, temp_buffer=rm.empty(need, np.uint8) if need else None)
        got = c.get().reshape(c0.shape if order is rs.Order.row else c0.shape[::-1])
        got = got if order is rs.Order.row else got.T
        expected = 2 * (exact(opa) @ exact(opb)) - exact(c0)
        assert np.array_equal(got, expected.real.astype(ct.dtype)), (fmt, op_a, op_b)


def test_spmm_type_checks():
    """compute_type must be C's type (checked before alg); then the combination must be rocSPARSE's (the wider
    vector types of spmv are not); blocked formats take uniform precisions only."""
    h = rs.create_handle()
    a = sp.csr_matrix(np.eye(2))
    B, _b = _dense(np.ones((2, 2)), F64, rs.Order.column)
    C, _c = _dense(np.zeros((2, 2)), F64, rs.Order.column)
    mat, _keep = descriptor(rs.Format.csr, a.astype(np.float32), F32)
    with pytest.raises(rs.SparseNotImplementedError) as err:
        rs.spmm(h, "N", "N", 1.0, mat, B, 0.0, C, F32, 99, rs.SpMMStage.compute)  # before the bad alg
    assert (err.value.arg, err.value.index) == ("compute_type", 9)
    with pytest.raises(rs.SparseNotImplementedError) as err:
        rs.spmm(h, "N", "N", 1.0, mat, B, 0.0, C, F64, 0, rs.SpMMStage.compute)  # f32 A with f64 B, C: spmv only
    assert (err.value.arg, err.value.index) == ("compute_type", 9)
    bsr, _kb = descriptor(rs.Format.bsr, sp.csr_matrix(np.eye(2, dtype=np.int8)), I8)
    B8, _b8 = _dense(np.ones((2, 2), np.int8), I8, rs.Order.column)
    C32m, c32 = _dense(np.full((2, 2), 5, np.int32), I32, rs.Order.column)
    with pytest.raises(rs.SparseNotImplementedError) as err:
        rs.spmm(h, "N", "N", 1.0, bsr, B8, 0.0, C32m, I32, 0, rs.SpMMStage.compute)
    assert err.value.arg == "mat_A"
    assert np.array_equal(c32.get(), np.full(4, 5, np.int32))


# --- numeric boost with a double tolerance ---------------------------------------------------------


def _ilu0(h, p: Precision, a: sp.csr_matrix, info, bsr: bool) -> np.ndarray:
    """csrilu0 (or bsrilu0 with 1 x 1 blocks) of ``a`` in precision ``p``; the factored values."""
    descr = rs.create_mat_descr()
    v = rm.to_device(a.data.astype(p.dtype))
    ptr, ind = rm.to_device(a.indptr.astype(np.int32)), rm.to_device(a.indices.astype(np.int32))
    buf = rm.empty(4096, np.uint8)
    m = a.shape[0]
    if bsr:
        getattr(rs, f"{p.letter}bsrilu0_analysis")(h, 0, m, a.nnz, descr, v, ptr, ind, 1, info, 1, 0, buf)
        getattr(rs, f"{p.letter}bsrilu0")(h, 0, m, a.nnz, descr, v, ptr, ind, 1, info, 0, buf)
    else:
        getattr(rs, f"{p.letter}csrilu0_analysis")(h, m, a.nnz, descr, v, ptr, ind, info, 1, 0, buf)
        getattr(rs, f"{p.letter}csrilu0")(h, m, a.nnz, descr, v, ptr, ind, info, 0, buf)
    return v.get()


@pytest.mark.parametrize("letter", ["s", "c"])
@pytest.mark.parametrize("bsr", [False, True], ids=["csrilu0", "bsrilu0"])
def test_numeric_boost_with_a_double_tolerance(letter, bsr):
    """``ds`` / ``dc``: the tolerance is a double, compared as such: a pivot of 1 is not boosted below a tolerance
    that rounds to 1 in single precision (the ``s`` / ``c`` boost, given that rounded value, boosts it)."""
    p = Precision.from_letter(letter)
    kind = "bsrilu0" if bsr else "csrilu0"
    a = sp.csr_matrix(np.array([[2.0, 1.0], [2.0, 2.0]]))  # u_11 = 2 - 2 * 1 / 2 = 1 exactly
    tol = 1.0 - 2.0**-30  # below 1, but 1 as a float32
    boost_val = (7.0 - 1j) if p.is_complex else 7.0
    h = rs.create_handle()
    for mode in (rs.PointerMode.host, rs.PointerMode.device):
        for variant, tol_type, expect in ((f"d{letter}", np.float64, 1.0), (letter, np.float32, boost_val)):
            info = rs.create_mat_info()
            rs.set_pointer_mode(h, mode)
            if mode is rs.PointerMode.host:
                t, v = tol, boost_val
            else:
                t, v = rm.to_device(np.array([tol], tol_type)), rm.to_device(np.array([boost_val], p.dtype))
            getattr(rs, f"{variant}{kind}_numeric_boost")(h, info, 1, t, v)
            rs.set_pointer_mode(h, rs.PointerMode.host)
            got = _ilu0(h, p, a, info, bsr)
            assert got[3] == p.dtype.type(expect), (variant, mode)
            assert info.precond.boost.double_tol is (variant != letter)
    # The double-tolerance setting is shared with the other factorization and switched off by enable_boost 0.
    info = rs.create_mat_info()
    other = "csrilu0" if bsr else "bsrilu0"
    getattr(rs, f"d{letter}{other}_numeric_boost")(h, info, 1, 1.5, boost_val)
    assert _ilu0(h, p, a, info, bsr)[3] == p.dtype.type(boost_val)
    getattr(rs, f"d{letter}{kind}_numeric_boost")(h, info, 0, None, None)
    assert info.precond.boost is None and _ilu0(h, p, a, info, bsr)[3] == 1


def test_numeric_boost_double_tolerance_checks():
    h = rs.create_handle()
    info = rs.create_mat_info()
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.dscsrilu0_numeric_boost(h, None, 1, 0.5, 1.0)
    assert err.value.index == 2
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.dccsrilu0_numeric_boost(h, info, 1, None, 1.0)
    assert err.value.index == 4
    with pytest.raises(rs.SparseInvalidPointerError) as err:
        rs.dsbsrilu0_numeric_boost(h, info, 1, 0.5, None)
    assert err.value.index == 5
    with pytest.raises(rs.SparseInvalidHandleError):
        rs.dcbsrilu0_numeric_boost(None, info, 1, 0.5, 1.0)
    # A single-precision boost value set on the device does not serve the double factorization.
    rs.set_pointer_mode(h, rs.PointerMode.device)
    rs.dscsrilu0_numeric_boost(h, info, 1, rm.to_device(np.array([0.5])), rm.to_device(np.array([3.0], np.float32)))
    rs.set_pointer_mode(h, rs.PointerMode.host)
    with pytest.raises(rs.SparseInvalidValueError):
        _ilu0(h, Precision.from_letter("d"), sp.csr_matrix(np.eye(2)), info, False)
