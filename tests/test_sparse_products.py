"""rocmath.sparse csrgemm_symbolic / csrgemm_numeric (against csrgemm, bitwise), bsrgeam and bsrgemm (against
scipy.sparse on the expanded matrices): results, nonzero counts, statuses in rocSPARSE's check order, quick
returns and memory left alone."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sparse_level2 import margins_untouched, padded, product_scale, random_csr, scalar

import rocmath as rm
import rocmath.sparse as rs
from rocmath.precision import SDCZ, D, Precision, Z
from rocmath.testing import assert_close, examples, scale_of

ROW, COL = rs.Direction.row, rs.Direction.column


def _fn(p: Precision, name: str):
    return getattr(rs, f"{p.letter}{name}")


def _descr(base: int = 0, mtype: rs.MatrixType | None = None, storage: rs.StorageMode | None = None) -> rs.MatDescr:
    d = rs.create_mat_descr()
    rs.set_mat_index_base(d, base)
    if mtype is not None:
        rs.set_mat_type(d, mtype)
    if storage is not None:
        rs.set_mat_storage_mode(d, storage)
    return d


def _scalar_arg(p: Precision, value, device_mode: bool, keep: list):
    if value is None:
        return None
    v = scalar(p, value)
    if device_mode:
        d = rm.to_device(np.array([v], p.dtype))
        keep.append(d)
        return d
    return v


def _handle(device_mode: bool = False):
    h = rs.create_handle()
    rs.set_pointer_mode(h, rs.PointerMode.device if device_mode else rs.PointerMode.host)
    return h


# --- csrgemm_symbolic / csrgemm_numeric --------------------------------------------------------------


def _csr_dev(a: sp.csr_matrix, base: int, it) -> tuple[rm.DeviceArray, rm.DeviceArray, rm.DeviceArray]:
    return (rm.to_device(a.data), rm.to_device((a.indptr + base).astype(it)),
            rm.to_device((a.indices + base).astype(it)))


def _new_values(rng, a: sp.csr_matrix) -> sp.csr_matrix:
    b = a.copy()
    b.data = random_csr(rng, 1, max(1, a.nnz), 1.0, a.dtype).data[: a.nnz] * 3
    return b


@st.composite
def gemm_problems(draw):
    # typical sizes first: derandomized hypothesis draws the first entries of each list most
    return dict(m=draw(st.sampled_from([5, 17, 1, 0])), n=draw(st.sampled_from([4, 23, 1, 0])),
                k=draw(st.sampled_from([9, 1, 0])), density=draw(st.sampled_from([0.4, 0.1, 1.0, 0.0])),
                p=draw(st.sampled_from(SDCZ)), bases=draw(st.tuples(*[st.sampled_from([0, 1])] * 4)),
                itype=draw(st.sampled_from([np.int32, np.int64])),
                alpha=draw(st.sampled_from([1.0, -0.5 + 2j, None, 0.0])),
                beta=draw(st.sampled_from([1.5j - 1, None, 0.0])),
                device_mode=draw(st.booleans()), seed=draw(st.integers(0, 2**16)))


@settings(max_examples=examples(50), derandomize=True)
@given(gemm_problems())
def test_csrgemm_symbolic_and_numeric_equal_csrgemm_bitwise(q):
    p, m, n, kd, it = q["p"], q["m"], q["n"], q["k"], q["itype"]
    if q["alpha"] is None and q["beta"] is None:
        q["beta"] = 1.0
    rng = np.random.default_rng(q["seed"])
    a, b, d = (random_csr(rng, m, kd, q["density"], p.dtype), random_csr(rng, kd, n, q["density"], p.dtype),
               random_csr(rng, m, n, q["density"] / 2, p.dtype))
    ba, bb, bd, bc = q["bases"]
    (av, ap, ai), (bv, bp, bi), (dv, dp, di) = _csr_dev(a, ba, it), _csr_dev(b, bb, it), _csr_dev(d, bd, it)
    da, db, dd, dc = _descr(ba), _descr(bb), _descr(bd), _descr(bc)
    h, keep = _handle(q["device_mode"]), []
    alpha = _scalar_arg(p, q["alpha"], q["device_mode"], keep)
    beta = _scalar_arg(p, q["beta"], q["device_mode"], keep)
    info = rs.create_mat_info()
    size = _fn(p, "csrgemm_buffer_size")(h, "N", "N", m, n, kd, alpha, da, a.nnz, ap, ai, db, b.nnz, bp, bi, beta,
                                         dd, d.nnz, dp, di, info)
    tmp = rm.empty(max(1, size), np.uint8)
    cp = rm.empty(m + 1, it)
    nnz_out = rm.to_device(np.full(1, -1, it))
    nnz = rs.csrgemm_nnz(h, "N", "N", m, n, kd, da, a.nnz, ap, ai, db, b.nnz, bp, bi, dd, d.nnz, dp, di, dc, cp,
                         nnz_out if q["device_mode"] else None, info, tmp)
    if q["device_mode"]:
        nnz = int(nnz_out.get()[0])

    def compute(av, bv, dv):
        cv, ci = rm.zeros(nnz, p.dtype), rm.zeros(nnz, it)
        _fn(p, "csrgemm")(h, "N", "N", m, n, kd, alpha, da, a.nnz, av, ap, ai, db, b.nnz, bv, bp, bi, beta, dd, d.nnz,
                          dv, dp, di, dc, cv, cp, ci, info, tmp)
        return ci.get(), cv.get()

    ref_cols, ref_vals = compute(av, bv, dv)
    row_ptr = cp.get().tobytes()
    ci_full, ci = padded(np.zeros(nnz, it))
    rs.csrgemm_symbolic(h, "N", "N", m, n, kd, da, a.nnz, ap, ai, db, b.nnz, bp, bi, dd, d.nnz, dp, di, dc, nnz, cp, ci,
                        info, tmp)
    assert np.array_equal(ci.get(), ref_cols)
    margins_untouched(ci_full, nnz)
    cv_full, cv = padded(np.zeros(nnz, p.dtype))
    numeric = _fn(p, "csrgemm_numeric")
    cols_before = ci_full.get().tobytes()
    numeric(h, "N", "N", m, n, kd, alpha, da, a.nnz, av, ap, ai, db, b.nnz, bv, bp, bi, beta, dd, d.nnz, dv, dp, di,
            dc, nnz, cv, cp, ci, info, tmp)
    assert cv.get().tobytes() == ref_vals.tobytes()
    # new values of the same structures: the numeric stage again equals a fresh csrgemm
    a2, b2, d2 = _new_values(rng, a), _new_values(rng, b), _new_values(rng, d)
    av2, bv2, dv2 = rm.to_device(a2.data), rm.to_device(b2.data), rm.to_device(d2.data)
    numeric(h, "N", "N", m, n, kd, alpha, da, a.nnz, av2, ap, ai, db, b.nnz, bv2, bp, bi, beta, dd, d.nnz, dv2, dp, di,
            dc, nnz, cv, cp, ci, info, tmp)
    _, fresh = compute(av2, bv2, dv2)
    assert cv.get().tobytes() == fresh.tobytes()
    assert ci_full.get().tobytes() == cols_before  # the numeric stage reads C's columns, never writes them
    assert cp.get().tobytes() == row_ptr  # nor does either stage write C's row pointer
    margins_untouched(cv_full, nnz)
    if nnz:
        expected = np.zeros((m, n), p.dtype)
        if q["alpha"] is not None:
            expected += scalar(p, q["alpha"]) * (a2 @ b2).toarray()
        if q["beta"] is not None:
            expected += scalar(p, q["beta"]) * d2.toarray()
        got = sp.csr_matrix((cv.get(), ci.get() - bc, cp.get() - bc), shape=(m, n)).toarray()
        scale = product_scale(p, scalar(p, q["alpha"]), a2, b2, scalar(p, q["beta"]), d2)
        assert_close(got, expected, p, "reduction", max(1, kd) + 1, scale=scale)


def test_csrgemm_symbolic_copies_d_columns_into_c_base_when_only_d_takes_part():
    h = rs.create_handle()
    d = sp.csr_matrix(np.array([[0, 2.0, 0, 1.0], [0, 0, 0, 0], [3.0, 0, 0, 4.0]]))
    dv, dp, di = _csr_dev(d, 1, np.int32)
    dd, dc = _descr(1), _descr(0)
    info = rs.create_mat_info()
    assert rs.dcsrgemm_buffer_size(h, "N", "N", 3, 4, 5, None, None, 0, None, None, None, 0, None, None, -2.0, dd,
                                   d.nnz, dp, di, info) == 0
    cp = rm.empty(4, np.int32)
    nnz = rs.csrgemm_nnz(h, "N", "N", 3, 4, 5, None, 0, None, None, None, 0, None, None, dd, d.nnz, dp, di, dc, cp,
                         None, info, None)
    ci = rm.empty(nnz, np.int32)
    rs.csrgemm_symbolic(h, "N", "N", 3, 4, 5, None, 0, None, None, None, 0, None, None, dd, d.nnz, dp, di, dc, nnz,
                        cp, ci, info, None)
    assert list(ci.get()) == list(d.indices)
    cv = rm.empty(nnz)
    rs.dcsrgemm_numeric(h, "N", "N", 3, 4, 5, None, None, 0, None, None, None, None, 0, None, None, None, -2.0, dd,
                        d.nnz, dv, dp, di, dc, nnz, cv, cp, ci, info, None)
    assert cv.get().tobytes() == (-2.0 * d.data).tobytes()


def _identity_csr(n: int = 4):
    return _csr_dev(sp.identity(n, format="csr"), 0, np.int32)


def _two_phase_args(h):
    """A valid ``C = alpha A B + beta D`` (4 x 4 identities) after buffer_size and nnz: the arguments of
    csrgemm_numeric by name."""
    v, pt, ix = _identity_csr()
    info = rs.create_mat_info()
    args = dict(trans_A="N", trans_B="N", m=4, n=4, k=4, alpha=1.0, descr_A=_descr(), nnz_A=4, csr_val_A=v,
                csr_row_ptr_A=pt, csr_col_ind_A=ix, descr_B=_descr(), nnz_B=4, csr_val_B=v, csr_row_ptr_B=pt,
                csr_col_ind_B=ix, beta=2.0, descr_D=_descr(), nnz_D=4, csr_val_D=v, csr_row_ptr_D=pt,
                csr_col_ind_D=ix, descr_C=_descr(), info_C=info)
    size = rs.dcsrgemm_buffer_size(h, **_only(args, rs.dcsrgemm_buffer_size))
    tmp = rm.empty(max(1, size), np.uint8)
    cp = rm.empty(5, np.int32)
    nnz = rs.csrgemm_nnz(h, "N", "N", 4, 4, 4, args["descr_A"], 4, pt, ix, args["descr_B"], 4, pt, ix,
                         args["descr_D"], 4, pt, ix, args["descr_C"], cp, None, info, tmp)
    args.update(nnz_C=nnz, csr_val_C=rm.empty(nnz), csr_row_ptr_C=cp, csr_col_ind_C=rm.empty(nnz, np.int32),
                temp_buffer=tmp)
    return args


def _check_order(fn, h, args: dict[str, Any], order: list[tuple[str, Any, rs.Status]]) -> None:
    """Break the arguments of ``order`` from the i-th on, for every i: the call reports the i-th (rocSPARSE's check
    order), with its status."""
    for i, (name, _, status) in enumerate(order):
        bad = dict(args)
        bad.update({n: v for n, v, _ in order[i:]})
        with pytest.raises(rs.SparseError) as exc:
            fn(h, **bad)
        assert (exc.value.status, exc.value.arg) == (status, name), (i, name)


_P, _S, _V, _NI = (rs.Status.invalid_pointer, rs.Status.invalid_size, rs.Status.invalid_value,
                   rs.Status.not_implemented)


def test_csrgemm_symbolic_check_order():
    h = rs.create_handle()
    args = {k: v for k, v in _two_phase_args(h).items() if not k.startswith("csr_val") and k not in ("alpha", "beta")}
    order = [("info_C", None, _P), ("trans_A", 7, _V), ("trans_B", 7, _V), ("m", -1, _S), ("n", -1, _S),
             ("k", -1, _S), ("nnz_A", -1, _S), ("nnz_B", -1, _S), ("nnz_D", -1, _S), ("nnz_C", -1, _S)]
    order += [(x, None, _P) for x in ("descr_A", "descr_B", "csr_row_ptr_A", "csr_col_ind_A", "csr_row_ptr_B",
                                      "csr_col_ind_B", "descr_D", "csr_row_ptr_D", "csr_col_ind_D", "descr_C",
                                      "csr_row_ptr_C", "csr_col_ind_C", "temp_buffer")]
    col_before = args["csr_col_ind_C"].get().tobytes()
    _check_order(rs.csrgemm_symbolic, h, args, order)
    with pytest.raises(rs.SparseNotImplementedError) as exc:
        rs.csrgemm_symbolic(h, **{**args, "trans_B": "T"})
    assert exc.value.arg == "trans_B"
    assert args["csr_col_ind_C"].get().tobytes() == col_before
    # no matrix type is checked (the numeric stage checks them), and a fresh info is invalid_pointer
    rs.csrgemm_symbolic(h, **{**args, "descr_A": _descr(mtype=rs.MatrixType.symmetric)})
    with pytest.raises(rs.SparseInvalidPointerError) as exc:
        rs.csrgemm_symbolic(h, **{**args, "info_C": rs.create_mat_info()})
    assert exc.value.arg == "info_C"
    with pytest.raises(rs.SparseInvalidHandleError):
        rs.csrgemm_symbolic(None, **{**args, "info_C": None})


def test_csrgemm_numeric_check_order():
    h = rs.create_handle()
    args = _two_phase_args(h)
    order = [("trans_A", 7, _V), ("trans_B", 7, _V), ("m", -1, _S), ("n", -1, _S), ("k", -1, _S), ("nnz_A", -1, _S),
             ("nnz_B", -1, _S), ("nnz_D", -1, _S), ("nnz_C", -1, _S), ("info_C", None, _P)]
    order += [(x, None, _P) for x in (
        "descr_A", "descr_B", "csr_val_A", "csr_row_ptr_A", "csr_col_ind_A", "csr_val_B", "csr_row_ptr_B",
        "csr_col_ind_B", "descr_D", "csr_val_D", "csr_row_ptr_D", "csr_col_ind_D", "descr_C", "csr_val_C",
        "csr_row_ptr_C", "csr_col_ind_C", "alpha", "beta", "temp_buffer")]
    _check_order(rs.dcsrgemm_numeric, h, args, order)
    sym = _descr(mtype=rs.MatrixType.symmetric)
    for change, arg in ((dict(descr_D=sym, descr_C=sym), "descr_C"), (dict(descr_D=sym, trans_A="T"), "descr_D"),
                        (dict(trans_A="T", trans_B="C"), "trans_A")):
        with pytest.raises(rs.SparseNotImplementedError) as exc:
            rs.dcsrgemm_numeric(h, **{**args, **change})
        assert exc.value.arg == arg
    # quick returns come before the checks they skip: m == 0, and no product with an empty D
    rs.dcsrgemm_numeric(h, **{**args, "m": 0, "descr_A": None, "csr_val_C": None})
    rs.dcsrgemm_numeric(h, **{**args, "nnz_A": 0, "nnz_D": 0, "alpha": None})


# --- BSR helpers -------------------------------------------------------------------------------------


def _pattern(rng, rows: int, cols: int, density: float) -> sp.csr_matrix:
    """A random block pattern (sorted) with some empty block rows."""
    a = sp.random(rows, cols, density=density, format="csr", random_state=rng)
    if rows > 1:
        a = sp.csr_matrix(sp.diags((rng.random(rows) < 0.75).astype(float)) @ a)
    a.eliminate_zeros()
    a.sort_indices()
    a.data[:] = 1.0
    return a


class Bsr:
    """A BSR matrix on the host (block pattern, ``(nnzb, bd, bd)`` blocks in storage order) and on the device."""

    def __init__(self, rng, rows: int, cols: int, bd: int, density: float, p: Precision, base: int = 0,
                 it=np.int32):
        self.rows, self.cols, self.bd, self.base = rows, cols, bd, base
        self.pattern = _pattern(rng, rows, cols, density)
        nnzb = self.pattern.nnz
        v = rng.standard_normal((nnzb, bd, bd))
        if p.is_complex:
            v = v + 1j * rng.standard_normal((nnzb, bd, bd))
        self.blocks = v.astype(p.dtype)
        self.nnzb = nnzb
        self.val = rm.to_device(self.blocks.reshape(-1))
        self.ptr = rm.to_device((self.pattern.indptr + base).astype(it))
        self.ind = rm.to_device((self.pattern.indices + base).astype(it))
        self.descr = _descr(base)

    def expanded(self, col_major: bool) -> sp.csr_matrix:
        return expand(self.pattern.indptr, self.pattern.indices, self.blocks, self.rows, self.cols, self.bd, col_major)


def expand(ptr, ind, blocks, rows: int, cols: int, bd: int, col_major: bool) -> sp.csr_matrix:
    """The scalar matrix of a 0-based BSR matrix (blocks stored row- or column-major)."""
    dense = np.zeros((rows * bd, cols * bd), blocks.dtype)
    for i in range(rows):
        for j in range(ptr[i], ptr[i + 1]):
            c = ind[j]
            dense[i * bd:(i + 1) * bd, c * bd:(c + 1) * bd] += blocks[j].T if col_major else blocks[j]
    return sp.csr_matrix(dense, shape=dense.shape)


def _block_structure(*patterns: sp.csr_matrix, shape: tuple[int, int]) -> sp.csr_matrix:
    s = sp.csr_matrix(shape, dtype=np.float64)
    for x in patterns:
        s = s + x
    s = sp.csr_matrix(s)
    s.eliminate_zeros()
    s.sort_indices()
    return s


@st.composite
def bsr_problems(draw):
    # typical sizes first: derandomized hypothesis draws the first entries of each list most
    return dict(mb=draw(st.sampled_from([6, 3, 1, 0])), nb=draw(st.sampled_from([4, 1, 0])),
                kb=draw(st.sampled_from([5, 1, 0])), bd=draw(st.sampled_from([2, 3, 4, 1])),
                col_major=draw(st.booleans()), density=draw(st.sampled_from([0.5, 0.9, 0.0])),
                p=draw(st.sampled_from(SDCZ)), bases=draw(st.tuples(*[st.sampled_from([0, 1])] * 4)),
                alpha=draw(st.sampled_from([-0.5 + 2j, 1.0, None, 0.0])),
                beta=draw(st.sampled_from([1.5j - 1, None, 0.0])), device_mode=draw(st.booleans()),
                seed=draw(st.integers(0, 2**16)))


def _bsrgemm(h, p, dirn, mb, nb, kb, bd, alpha, A: Bsr, B: Bsr, beta, Dm: Bsr, dc, it=np.int32, device_nnz=False):
    """bsrgemm's three stages into padded C arrays: (nnzb, row pointer, columns, values, their padded allocations)."""
    info = rs.create_mat_info()
    size = _fn(p, "bsrgemm_buffer_size")(h, dirn, "N", "N", mb, nb, kb, bd, alpha, A.descr, A.nnzb, A.ptr, A.ind,
                                         B.descr, B.nnzb, B.ptr, B.ind, beta, Dm.descr, Dm.nnzb, Dm.ptr, Dm.ind, info)
    tmp = rm.empty(max(1, size), np.uint8)
    cp_full, cp = padded(np.zeros(mb + 1, it))
    nnzb_out = rm.to_device(np.full(1, -1, it))
    nnzb = rs.bsrgemm_nnzb(h, dirn, "N", "N", mb, nb, kb, bd, A.descr, A.nnzb, A.ptr, A.ind, B.descr, B.nnzb, B.ptr,
                           B.ind, Dm.descr, Dm.nnzb, Dm.ptr, Dm.ind, dc, cp, nnzb_out if device_nnz else None, info,
                           tmp)
    if device_nnz:
        assert nnzb is None
        nnzb = int(nnzb_out.get()[0])
    cv_full, cv = padded(np.zeros(nnzb * bd * bd, p.dtype))
    ci_full, ci = padded(np.zeros(nnzb, it))
    _fn(p, "bsrgemm")(h, dirn, "N", "N", mb, nb, kb, bd, alpha, A.descr, A.nnzb, A.val, A.ptr, A.ind, B.descr, B.nnzb,
                      B.val, B.ptr, B.ind, beta, Dm.descr, Dm.nnzb, Dm.val, Dm.ptr, Dm.ind, dc, cv, cp, ci, info, tmp)
    return nnzb, cp, ci, cv, (cp_full, ci_full, cv_full)


def check_bsrgemm(q) -> int:
    """bsrgemm against scipy for one problem of :func:`bsr_problems`; returns C's blocks."""
    p, mb, nb, kb, bd = q["p"], q["mb"], q["nb"], q["kb"], q["bd"]
    if q["alpha"] is None and q["beta"] is None:
        q["alpha"] = 1.0
    rng = np.random.default_rng(q["seed"])
    ba, bb, bdd, bc = q["bases"]
    A = Bsr(rng, mb, kb, bd, q["density"], p, ba)
    B = Bsr(rng, kb, nb, bd, q["density"], p, bb)
    Dm = Bsr(rng, mb, nb, bd, q["density"] / 2, p, bdd)
    h, keep = _handle(q["device_mode"]), []
    alpha = _scalar_arg(p, q["alpha"], q["device_mode"], keep)
    beta = _scalar_arg(p, q["beta"], q["device_mode"], keep)
    dirn = COL if q["col_major"] else ROW
    nnzb, cp, ci, cv, fulls = _bsrgemm(h, p, dirn, mb, nb, kb, bd, alpha, A, B, beta, Dm, _descr(bc),
                                       device_nnz=q["device_mode"])
    # C's blocks: wherever the block patterns of A B and D meet (as rocSPARSE: zero blocks from alpha == 0,
    # beta == 0 or cancellation stay)
    mul = q["alpha"] is not None and kb and A.nnzb and B.nnzb
    add = q["beta"] is not None and Dm.nnzb
    parts = ([A.pattern @ B.pattern] if mul else []) + ([Dm.pattern] if add else [])
    struct = _block_structure(*parts, shape=(mb, nb))
    assert nnzb == struct.nnz
    assert np.array_equal(cp.get() - bc, struct.indptr)
    assert np.array_equal(ci.get() - bc, struct.indices)
    for full, n in zip(fulls, (mb + 1, nnzb, nnzb * bd * bd), strict=True):
        margins_untouched(full, n)
    expected = sp.csr_matrix((mb * bd, nb * bd), dtype=p.dtype)
    terms = []  # the magnitudes of the terms each entry sums
    ea, eb, ed = A.expanded(q["col_major"]), B.expanded(q["col_major"]), Dm.expanded(q["col_major"])
    if mul:
        expected = expected + scalar(p, q["alpha"]) * (ea @ eb)
        terms.append(abs(scalar(p, q["alpha"])) * (abs(ea) @ abs(eb)).toarray())
    if add:
        expected = expected + scalar(p, q["beta"]) * ed
        terms.append(abs(scalar(p, q["beta"])) * abs(ed).toarray())
    got = expand(struct.indptr, struct.indices, cv.get().reshape(nnzb, bd, bd), mb, nb, bd, q["col_major"])
    assert_close(got.toarray(), np.asarray(expected.toarray(), p.dtype), p, "reduction", max(1, kb * bd) + 1,
                 scale=scale_of(p, *terms))
    return nnzb


@settings(max_examples=examples(60), derandomize=True)
@given(bsr_problems())
def test_bsrgemm_matches_scipy(q):
    check_bsrgemm(q)


_CASES = {"multadd": (-0.5 + 2j, 1.5j - 1), "mult": (2.0, None), "scal": (None, -2.0), "zero scalars": (0.0, 0.0)}


@pytest.mark.parametrize("case", list(_CASES))
@pytest.mark.parametrize("col_major", [False, True], ids=["row", "col"])
@pytest.mark.parametrize("bd", [1, 2, 3, 4])
def test_bsrgemm_cases_block_dims_and_directions(bd, col_major, case):
    i = 8 * bd + 4 * col_major + list(_CASES).index(case)
    alpha, beta = _CASES[case]
    q = dict(mb=7, nb=5, kb=6, bd=bd, col_major=col_major, density=0.45, p=SDCZ[i % 4], bases=(i % 2, 1, 0, i // 2 % 2),
             alpha=alpha, beta=beta, device_mode=i % 3 == 0, seed=i)
    assert check_bsrgemm(q) > 0


def check_bsrgeam(q) -> int:
    """bsrgeam against scipy for one problem of :func:`bsr_problems` (a null alpha or beta: 2 and -1); returns C's
    blocks."""
    p, mb, nb, bd = q["p"], q["mb"], q["nb"], q["bd"]
    rng = np.random.default_rng(q["seed"])
    ba, bb, _, bc = q["bases"]
    A = Bsr(rng, mb, nb, bd, q["density"], p, ba)
    B = Bsr(rng, mb, nb, bd, q["density"] / 2, p, bb)
    h, keep = _handle(q["device_mode"]), []
    alpha = _scalar_arg(p, 2.0 if q["alpha"] is None else q["alpha"], q["device_mode"], keep)
    beta = _scalar_arg(p, -1.0 if q["beta"] is None else q["beta"], q["device_mode"], keep)
    dirn, dc = (COL if q["col_major"] else ROW), _descr(bc)
    cp_full, cp = padded(np.zeros(mb + 1, np.int32))
    nnzb_out = rm.to_device(np.full(1, -1, np.int32))
    nnzb = rs.bsrgeam_nnzb(h, dirn, mb, nb, bd, A.descr, A.nnzb, A.ptr, A.ind, B.descr, B.nnzb, B.ptr, B.ind, dc, cp,
                           nnzb_out if q["device_mode"] else None)
    if q["device_mode"]:
        assert nnzb is None
        nnzb = int(nnzb_out.get()[0])
    struct = _block_structure(A.pattern, B.pattern, shape=(mb, nb))
    assert nnzb == struct.nnz and np.array_equal(cp.get() - bc, struct.indptr)
    cv_full, cv = padded(np.zeros(nnzb * bd * bd, p.dtype))
    ci_full, ci = padded(np.zeros(nnzb, np.int32))
    _fn(p, "bsrgeam")(h, dirn, mb, nb, bd, alpha, A.descr, A.nnzb, A.val, A.ptr, A.ind, beta, B.descr, B.nnzb, B.val,
                      B.ptr, B.ind, dc, cv, cp, ci)
    for full, n in ((cp_full, mb + 1), (ci_full, nnzb), (cv_full, nnzb * bd * bd)):
        margins_untouched(full, n)
    if not nnzb:
        return 0
    assert np.array_equal(ci.get() - bc, struct.indices)
    cm = q["col_major"]
    al, be = (scalar(p, 2.0 if q["alpha"] is None else q["alpha"]), scalar(p, -1.0 if q["beta"] is None else q["beta"]))
    expected = al * A.expanded(cm) + be * B.expanded(cm)
    got = expand(struct.indptr, struct.indices, cv.get().reshape(nnzb, bd, bd), mb, nb, bd, cm)
    assert_close(got.toarray(), np.asarray(expected.toarray(), p.dtype), p, "elementwise", 2,
                 scale=scale_of(p, abs(al) * abs(A.expanded(cm)).toarray(), abs(be) * abs(B.expanded(cm)).toarray()))
    return nnzb


@settings(max_examples=examples(40), derandomize=True)
@given(bsr_problems())
def test_bsrgeam_matches_scipy(q):
    check_bsrgeam(q)


@pytest.mark.parametrize("col_major", [False, True], ids=["row", "col"])
@pytest.mark.parametrize("bd", [1, 2, 3, 4])
def test_bsrgeam_block_dims_and_directions(bd, col_major):
    i = 2 * bd + col_major
    q = dict(mb=7, nb=6, bd=bd, col_major=col_major, density=0.5, p=SDCZ[i % 4], bases=(i % 2, 1, 0, i // 2 % 2),
             alpha=(0.0, 1.5, None, -1 + 1j)[i % 4], beta=(0.5j, 0.0, -2.0, None)[i % 4], device_mode=i % 3 == 0,
             seed=i)
    assert check_bsrgeam(q) > 0


@pytest.mark.parametrize("p", [D, Z], ids=["d", "z"])
@pytest.mark.parametrize("bd", [2, 3])
def test_bsr_products_give_transposed_blocks_bitwise_in_the_two_directions(p, bd):
    rng = np.random.default_rng(bd)
    A, B, Dm = Bsr(rng, 5, 4, bd, 0.6, p), Bsr(rng, 4, 6, bd, 0.6, p, 1), Bsr(rng, 5, 6, bd, 0.4, p)
    h = rs.create_handle()
    row = _bsrgemm(h, p, ROW, 5, 6, 4, bd, 0.5 - 1j if p.is_complex else 0.5, A, B, 2.0, Dm, _descr())
    for x in (A, B, Dm):  # the same matrices, each block stored column-major
        x.val = rm.to_device(np.ascontiguousarray(np.transpose(x.blocks, (0, 2, 1))).reshape(-1))
    col = _bsrgemm(h, p, COL, 5, 6, 4, bd, 0.5 - 1j if p.is_complex else 0.5, A, B, 2.0, Dm, _descr())
    nnzb = row[0]
    assert nnzb == col[0] and np.array_equal(row[2].get(), col[2].get())
    blocks = col[3].get().reshape(nnzb, bd, bd)
    assert np.transpose(blocks, (0, 2, 1)).tobytes() == row[3].get().reshape(nnzb, bd, bd).tobytes()


def test_bsr_products_of_block_dim_one_are_csrgemm_and_csrgeam_bitwise():
    rng = np.random.default_rng(7)
    A, B, Dm = Bsr(rng, 9, 7, 1, 0.4, Z), Bsr(rng, 7, 8, 1, 0.4, Z), Bsr(rng, 9, 8, 1, 0.3, Z, 1)
    h = rs.create_handle()
    nnzb, _, ci, cv, _ = _bsrgemm(h, Z, COL, 9, 8, 7, 1, 1 - 2j, A, B, 0.5j, Dm, _descr())
    info = rs.create_mat_info()
    d = _descr()
    size = rs.zcsrgemm_buffer_size(h, "N", "N", 9, 8, 7, 1 - 2j, d, A.nnzb, A.ptr, A.ind, d, B.nnzb, B.ptr, B.ind,
                                   0.5j, Dm.descr, Dm.nnzb, Dm.ptr, Dm.ind, info)
    tmp, cp2 = rm.empty(max(1, size), np.uint8), rm.empty(10, np.int32)
    nnz = rs.csrgemm_nnz(h, "N", "N", 9, 8, 7, d, A.nnzb, A.ptr, A.ind, d, B.nnzb, B.ptr, B.ind, Dm.descr, Dm.nnzb,
                         Dm.ptr, Dm.ind, d, cp2, None, info, tmp)
    cv2, ci2 = rm.empty(nnz, np.complex128), rm.empty(nnz, np.int32)
    rs.zcsrgemm(h, "N", "N", 9, 8, 7, 1 - 2j, d, A.nnzb, A.val, A.ptr, A.ind, d, B.nnzb, B.val, B.ptr, B.ind, 0.5j,
                Dm.descr, Dm.nnzb, Dm.val, Dm.ptr, Dm.ind, d, cv2, cp2, ci2, info, tmp)
    assert nnz == nnzb and np.array_equal(ci.get(), ci2.get()) and cv.get().tobytes() == cv2.get().tobytes()
    cp3 = rm.empty(10, np.int32)
    n3 = rs.bsrgeam_nnzb(h, ROW, 9, 8, 1, A.descr, A.nnzb, A.ptr, A.ind, Dm.descr, Dm.nnzb, Dm.ptr, Dm.ind, d, cp3,
                         None)
    assert n3 == rs.csrgeam_nnz(h, 9, 8, A.descr, A.nnzb, A.ptr, A.ind, Dm.descr, Dm.nnzb, Dm.ptr, Dm.ind, d, cp2,
                                None)
    out = [(rm.empty(n3, np.complex128), rm.empty(n3, np.int32)) for _ in range(2)]
    rs.zbsrgeam(h, ROW, 9, 8, 1, 2j, A.descr, A.nnzb, A.val, A.ptr, A.ind, -1.0, Dm.descr, Dm.nnzb, Dm.val, Dm.ptr,
                Dm.ind, d, out[0][0], cp3, out[0][1])
    rs.zcsrgeam(h, 9, 8, 2j, A.descr, A.nnzb, A.val, A.ptr, A.ind, -1.0, Dm.descr, Dm.nnzb, Dm.val, Dm.ptr, Dm.ind, d,
                out[1][0], cp2, out[1][1])
    assert np.array_equal(out[0][1].get(), out[1][1].get()) and out[0][0].get().tobytes() == out[1][0].get().tobytes()


def test_bsrgemm_with_64_bit_indices_and_a_scale_only_product():
    rng = np.random.default_rng(3)
    A, B = Bsr(rng, 4, 3, 2, 0.7, D, 0, np.int64), Bsr(rng, 3, 5, 2, 0.7, D, 1, np.int64)
    Dm = Bsr(rng, 4, 5, 2, 0.5, D, 1, np.int64)
    h = rs.create_handle()
    nnzb, _, ci, cv, _ = _bsrgemm(h, D, ROW, 4, 5, 3, 2, -1.5, A, B, 0.25, Dm, _descr(), it=np.int64)
    struct = _block_structure(A.pattern @ B.pattern, Dm.pattern, shape=(4, 5))
    assert nnzb == struct.nnz and np.array_equal(ci.get(), struct.indices)
    got = expand(struct.indptr, struct.indices, cv.get().reshape(nnzb, 2, 2), 4, 5, 2, False)
    assert_close(got.toarray(), (-1.5 * (A.expanded(False) @ B.expanded(False)) + 0.25 * Dm.expanded(False)).toarray(),
                 D, "reduction", 7)
    # alpha null: C is beta D, D's columns copied into C's index base and its values scaled (even blocks of 33)
    big = Bsr(rng, 2, 3, 33, 0.7, D, 1, np.int64)
    empty = Bsr(rng, 2, 3, 33, 0.0, D, 0, np.int64)
    assert big.nnzb
    nnzb, _, ci, cv, _ = _bsrgemm(h, D, COL, 2, 3, 3, 33, None, empty, empty, -3.0, big, _descr(0), it=np.int64)
    assert nnzb == big.nnzb and np.array_equal(ci.get(), big.pattern.indices)
    assert cv.get().tobytes() == (-3.0 * big.blocks.reshape(-1)).tobytes()


def test_block_dims_beyond_32_are_not_implemented_as_in_rocsparse():
    rng = np.random.default_rng(1)
    A = Bsr(rng, 1, 1, 33, 1.0, D)
    h = rs.create_handle()
    cp = rm.empty(2, np.int32)
    assert rs.bsrgeam_nnzb(h, ROW, 1, 1, 33, A.descr, 1, A.ptr, A.ind, A.descr, 1, A.ptr, A.ind, _descr(), cp,
                           None) == 1
    cv_full, cv = padded(np.zeros(33 * 33))
    with pytest.raises(rs.SparseNotImplementedError) as exc:
        rs.dbsrgeam(h, ROW, 1, 1, 33, 1.0, A.descr, 1, A.val, A.ptr, A.ind, 1.0, A.descr, 1, A.val, A.ptr, A.ind,
                    _descr(), cv, cp, rm.empty(1, np.int32))
    assert exc.value.arg == "block_dim"
    info = rs.create_mat_info()
    size = rs.dbsrgemm_buffer_size(h, ROW, "N", "N", 1, 1, 1, 33, 1.0, A.descr, 1, A.ptr, A.ind, A.descr, 1, A.ptr,
                                   A.ind, None, None, 0, None, None, info)
    tmp = rm.empty(max(1, size), np.uint8)
    assert rs.bsrgemm_nnzb(h, ROW, "N", "N", 1, 1, 1, 33, A.descr, 1, A.ptr, A.ind, A.descr, 1, A.ptr, A.ind, None, 0,
                           None, None, _descr(), cp, None, info, tmp) == 1
    with pytest.raises(rs.SparseNotImplementedError) as exc:
        rs.dbsrgemm(h, ROW, "N", "N", 1, 1, 1, 33, 1.0, A.descr, 1, A.val, A.ptr, A.ind, A.descr, 1, A.val, A.ptr,
                    A.ind, None, None, 0, None, None, None, _descr(), cv, cp, rm.empty(1, np.int32), info, tmp)
    assert exc.value.arg == "block_dim"
    margins_untouched(cv_full, 33 * 33)
    assert not cv.get().any()


# --- BSR statuses, in rocSPARSE's order -------------------------------------------------------------


def _bsr_args(h, device_mode: bool = False):
    """Valid arguments of bsrgemm (C = A B + 2 D, 3 x 3 identity block patterns of 2 x 2 blocks, after
    buffer_size and nnzb) by name."""
    rng = np.random.default_rng(0)
    eye = sp.identity(3, format="csr")
    ptr, ind = rm.to_device(eye.indptr.astype(np.int32)), rm.to_device(eye.indices.astype(np.int32))
    val = rm.to_device(rng.standard_normal(12))
    keep: list = []
    alpha, beta = _scalar_arg(D, 1.0, device_mode, keep), _scalar_arg(D, 2.0, device_mode, keep)
    args = dict(dir=ROW, trans_A="N", trans_B="N", mb=3, nb=3, kb=3, block_dim=2, alpha=alpha, descr_A=_descr(),
                nnzb_A=3, bsr_val_A=val, bsr_row_ptr_A=ptr, bsr_col_ind_A=ind, descr_B=_descr(), nnzb_B=3,
                bsr_val_B=val, bsr_row_ptr_B=ptr, bsr_col_ind_B=ind, beta=beta, descr_D=_descr(), nnzb_D=3,
                bsr_val_D=val, bsr_row_ptr_D=ptr, bsr_col_ind_D=ind, descr_C=_descr(), info_C=rs.create_mat_info())
    size = rs.dbsrgemm_buffer_size(h, **_only(args, rs.dbsrgemm_buffer_size))
    tmp = rm.empty(max(1, size), np.uint8)
    cp = rm.empty(4, np.int32)
    nnzb_c = rm.empty(1, np.int32)
    args.update(bsr_row_ptr_C=cp, nnzb_C=nnzb_c if device_mode else None, temp_buffer=tmp)
    rs.bsrgemm_nnzb(h, **_only(args, rs.bsrgemm_nnzb))
    args.update(bsr_val_C=rm.to_device(np.full(12, 7.0)), bsr_col_ind_C=rm.to_device(np.full(3, 9, np.int32)),
                keep=keep)
    return args


def _only(args: dict[str, Any], fn) -> dict[str, Any]:
    names = fn.__signature__.parameters
    return {k: v for k, v in args.items() if k in names and k != "handle"}


def _outputs(args) -> list[bytes]:
    return [args[x].get().tobytes() for x in ("bsr_row_ptr_C", "bsr_col_ind_C", "bsr_val_C")]


_SIZES = [("dir", 5, _V), ("trans_A", 7, _V), ("trans_B", 7, _V), ("mb", -1, _S), ("nb", -1, _S), ("kb", -1, _S),
          ("block_dim", 0, _S)]


def test_bsrgemm_buffer_size_check_order_and_info_before_the_handle():
    h = rs.create_handle()
    args = _only(_bsr_args(h), rs.dbsrgemm_buffer_size)
    order = [*_SIZES, ("nnzb_A", -1, _S), ("nnzb_B", -1, _S), ("nnzb_D", -1, _S)]
    order += [(x, None, _P) for x in ("descr_A", "descr_B", "descr_D", "bsr_row_ptr_A", "bsr_row_ptr_B",
                                      "bsr_row_ptr_D", "bsr_col_ind_A", "bsr_col_ind_B", "bsr_col_ind_D")]
    _check_order(rs.dbsrgemm_buffer_size, h, args, order)
    sym = _descr(mtype=rs.MatrixType.symmetric)
    for change, arg, status in ((dict(descr_B=sym, trans_A="T"), "descr_B", _NI), (dict(trans_B="T"), "trans_B", _NI),
                                (dict(alpha=None, beta=None), "alpha", _P)):
        with pytest.raises(rs.SparseError) as exc:
            rs.dbsrgemm_buffer_size(h, **{**args, **change})
        assert (exc.value.status, exc.value.arg) == (status, arg)
    # info_C comes before the handle, and the case is recorded there even when the handle then fails
    with pytest.raises(rs.SparseInvalidPointerError) as exc:
        rs.dbsrgemm_buffer_size(None, **{**args, "info_C": None})
    assert exc.value.arg == "info_C"
    info = rs.create_mat_info()
    with pytest.raises(rs.SparseInvalidHandleError):
        rs.dbsrgemm_buffer_size(None, **{**args, "info_C": info, "beta": None})
    assert (info.csrgemm.mul, info.csrgemm.add) == (True, False)
    # that info was never initialized: bsrgemm wants a non-null temp_buffer even for a scale-free product
    full = _bsr_args(h)
    with pytest.raises(rs.SparseInvalidPointerError) as exc:
        rs.dbsrgemm(h, **{**_only(full, rs.dbsrgemm), "info_C": info, "temp_buffer": None})
    assert exc.value.arg == "temp_buffer"
    # quick returns: no bytes
    for change in (dict(mb=0), dict(nnzb_A=0, nnzb_D=0), dict(alpha=None, nnzb_D=0, beta=1.0)):
        assert rs.dbsrgemm_buffer_size(h, **{**args, **change, "info_C": rs.create_mat_info()}) == 0


@pytest.mark.parametrize("device_mode", [False, True], ids=["host", "device"])
def test_bsrgemm_nnzb_check_order(device_mode):
    h = _handle(device_mode)
    full = _bsr_args(h, device_mode)
    args = _only(full, rs.bsrgemm_nnzb)
    before = _outputs(full)
    order = [*_SIZES, ("nnzb_A", -1, _S), ("nnzb_B", -1, _S), ("nnzb_D", -1, _S)]
    order += [(x, None, _P) for x in ("descr_A", "descr_B", "descr_D", "descr_C")]
    order += [("nnzb_C", None, _P)] if device_mode else []
    order += [(x, None, _P) for x in ("bsr_row_ptr_A", "bsr_row_ptr_B", "bsr_row_ptr_D", "bsr_row_ptr_C",
                                      "bsr_col_ind_A", "bsr_col_ind_B", "bsr_col_ind_D")]
    order += [("temp_buffer", None, _P)]
    _check_order(rs.bsrgemm_nnzb, h, args, order)
    sym = _descr(mtype=rs.MatrixType.symmetric)
    for change, arg in ((dict(descr_D=sym, descr_C=sym, trans_A="T"), "descr_D"), (dict(trans_A="T"), "trans_A")):
        with pytest.raises(rs.SparseNotImplementedError) as exc:
            rs.bsrgemm_nnzb(h, **{**args, **change})
        assert exc.value.arg == arg
    assert _outputs(full) == before
    with pytest.raises(rs.SparseInvalidPointerError) as exc:  # info_C before the handle
        rs.bsrgemm_nnzb(None, **{**args, "info_C": rs.create_mat_info()})
    assert exc.value.arg == "info_C"
    # the quick return (mb == 0 or nb == 0) fills C's row pointer with its base, skipping the later checks
    rs.set_mat_index_base(args["descr_C"], 1)
    got = rs.bsrgemm_nnzb(h, **{**args, "nb": 0, "trans_A": "T", "temp_buffer": None})
    assert list(full["bsr_row_ptr_C"].get()) == [1, 1, 1, 1]
    assert (int(full["nnzb_C"].get()[0]) if device_mode else got) == 0


def test_bsrgemm_check_order_and_untouched_output():
    h = rs.create_handle()
    full = _bsr_args(h)
    args = _only(full, rs.dbsrgemm)
    before = _outputs(full)
    order = [("info_C", None, _P), *_SIZES, ("temp_buffer", None, _P), ("nnzb_A", -1, _S), ("nnzb_B", -1, _S),
             ("nnzb_D", -1, _S)]
    order += [(x, None, _P) for x in (
        "descr_A", "descr_B", "descr_D", "descr_C", "alpha", "beta", "bsr_row_ptr_A", "bsr_row_ptr_B", "bsr_row_ptr_D",
        "bsr_row_ptr_C", "bsr_val_A", "bsr_col_ind_A", "bsr_val_B", "bsr_col_ind_B", "bsr_val_D", "bsr_col_ind_D",
        "bsr_val_C", "bsr_col_ind_C")]
    _check_order(rs.dbsrgemm, h, args, order)
    sym = _descr(mtype=rs.MatrixType.symmetric)
    for change, arg in ((dict(descr_D=sym, descr_C=sym, trans_A="T"), "descr_C"), (dict(trans_B="T"), "trans_B")):
        with pytest.raises(rs.SparseNotImplementedError) as exc:
            rs.dbsrgemm(h, **{**args, **change})
        assert exc.value.arg == arg
    # quick returns skip the later checks: nothing is read or written
    rs.dbsrgemm(h, **{**args, "mb": 0, "trans_A": "T"})
    rs.dbsrgemm(h, **{**args, "nnzb_A": 0, "nnzb_D": 0, "trans_B": "T"})
    assert _outputs(full) == before
    rs.dbsrgemm(h, **args)
    assert _outputs(full) != before


def _geam_args(h):
    full = _bsr_args(h)
    return full, {**_only(full, rs.dbsrgeam), "mb": 3, "nb": 3, "nnzb_A": 3, "nnzb_B": 3,
                  "bsr_val_B": full["bsr_val_D"], "alpha": 1.0, "beta": 2.0}


def _geam_head():
    return [("descr_A", None, _P), ("descr_B", _descr(mtype=rs.MatrixType.symmetric), _NI),
            ("descr_C", _descr(storage=rs.StorageMode.unsorted), rs.Status.requires_sorted_storage),
            ("dir", 5, _V), ("mb", -1, _S), ("nb", -1, _S), ("block_dim", 0, _S), ("nnzb_A", -1, _S),
            ("nnzb_B", -1, _S)]


def test_bsrgeam_nnzb_check_order():
    h = rs.create_handle()
    full, geam = _geam_args(h)
    args = {**_only(geam, rs.bsrgeam_nnzb), "bsr_row_ptr_C": full["bsr_row_ptr_C"], "nnzb_C": None}
    before = _outputs(full)
    order = _geam_head() + [(x, None, _P) for x in ("bsr_row_ptr_C", "bsr_row_ptr_A", "bsr_col_ind_A",
                                                    "bsr_row_ptr_B", "bsr_col_ind_B")]
    _check_order(rs.bsrgeam_nnzb, h, args, order)
    assert _outputs(full) == before
    # quick returns: mb == 0 or nb == 0 leave C's row pointer; both matrices empty fill it with C's base
    assert rs.bsrgeam_nnzb(h, **{**args, "nb": 0, "bsr_row_ptr_A": None}) == 0
    assert _outputs(full) == before
    rs.set_mat_index_base(args["descr_C"], 1)
    assert rs.bsrgeam_nnzb(h, **{**args, "nnzb_A": 0, "nnzb_B": 0, "bsr_row_ptr_A": None}) == 0
    assert list(full["bsr_row_ptr_C"].get()) == [1, 1, 1, 1]


def test_bsrgeam_check_order():
    h = rs.create_handle()
    full, args = _geam_args(h)
    before = _outputs(full)
    order = _geam_head() + [(x, None, _P) for x in (
        "alpha", "bsr_val_A", "bsr_row_ptr_A", "bsr_col_ind_A", "beta", "bsr_val_B", "bsr_row_ptr_B", "bsr_col_ind_B",
        "bsr_row_ptr_C", "bsr_val_C", "bsr_col_ind_C")]
    _check_order(rs.dbsrgeam, h, args, order)
    rs.dbsrgeam(h, **{**args, "nnzb_A": 0, "nnzb_B": 0, "alpha": None})  # quick return before alpha's check
    assert _outputs(full) == before


def test_checking_mode_scans_the_block_patterns_and_skips_the_product():
    from rocmath.errors import MemoryAccessFault

    h = rs.create_handle()
    h.set_stream(rm.Stream())
    full = _bsr_args(h)
    before = _outputs(full)
    with rm.checking():
        rs.dbsrgemm(h, **{**_only(full, rs.dbsrgemm), "bsr_col_ind_B": rm.to_device(np.array([0, 1, 3], np.int32))})
        with pytest.raises(MemoryAccessFault) as err:
            h.stream.synchronize()
        assert "bsr_col_ind_B[2] = 3" in str(err.value)
        # a one-based pattern described as zero-based: the blocking nnzb stage raises at once
        _, geam = _geam_args(h)
        one_based = dict(bsr_row_ptr_A=rm.to_device(np.array([1, 2, 3, 4], np.int32)),
                         bsr_col_ind_A=rm.to_device(np.array([1, 2, 3], np.int32)))
        with pytest.raises(MemoryAccessFault) as err:
            rs.bsrgeam_nnzb(h, **{**_only(geam, rs.bsrgeam_nnzb), **one_based,
                                  "bsr_row_ptr_C": full["bsr_row_ptr_C"], "nnzb_C": None})
        assert "bsr_row_ptr_A[3] = 4" in str(err.value)
    assert _outputs(full) == before
    h.stream.destroy()
