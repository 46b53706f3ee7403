"""rocmath.sparse bsrsm, bsric0, bsrxmv and bsrpad_value (sparse/_bsr_solve.py): against dense references on
the expanded matrices, their zero pivots, their analysis sharing, and rocSPARSE's argument checks in its order."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
import scipy.linalg as sl
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.sparse as rs
from rocmath.errors import MemoryAccessFault
from rocmath.precision import SDCZ, Precision
from rocmath.testing import examples

TOL = {"s": 2e-3, "d": 1e-10, "c": 2e-3, "z": 1e-10}
SENTINEL = -7.25
N, T, CT = rs.Operation.none, rs.Operation.transpose, rs.Operation.conjugate_transpose
LOWER, UPPER = rs.FillMode.lower, rs.FillMode.upper
FORCE, REUSE, AUTO = rs.AnalysisPolicy.force, rs.AnalysisPolicy.reuse, rs.SolvePolicy.auto


def fn(p: Precision | str, name: str):
    return getattr(rs, f"{p if isinstance(p, str) else p.letter}{name}")


def wide(p: Precision):
    return np.complex128 if p.is_complex else np.float64


def uniform(rng: np.random.Generator, shape, p: Precision) -> np.ndarray:
    v = rng.uniform(-1, 1, shape)
    if p.is_complex:
        v = v + 1j * rng.uniform(-1, 1, shape)
    return v


def setup(base: int = 0, fill: int = 0, unit: bool = False):
    h, descr, info = rs.create_handle(), rs.create_mat_descr(), rs.create_mat_info()
    rs.set_mat_index_base(descr, base)
    rs.set_mat_fill_mode(descr, fill)
    rs.set_mat_diag_type(descr, rs.DiagType.unit if unit else rs.DiagType.non_unit)
    return h, descr, info


def padded(values: np.ndarray, pad: int = 3) -> rm.DeviceArray:
    """A device copy of ``values`` followed by ``pad`` sentinels."""
    return rm.to_device(np.concatenate([values.ravel(), np.full(pad, SENTINEL, values.dtype)]))


def bsr_values(blocks: np.ndarray, direction: int) -> np.ndarray:
    """rocSPARSE's bsr_val of ``(nnzb, bd, bd)`` blocks: each row-major (direction row) or column-major."""
    data = blocks if direction == 0 else blocks.transpose(0, 2, 1)
    return np.ascontiguousarray(data).reshape(-1)


def blocks_of(values: np.ndarray, bd: int, direction: int) -> np.ndarray:
    blocks = values.reshape(-1, bd, bd)
    return blocks if direction == 0 else blocks.transpose(0, 2, 1)


def structure(b: sp.bsr_matrix, base: int, itype=np.int32):
    return rm.to_device((b.indptr + base).astype(itype)), rm.to_device((b.indices + base).astype(itype))


def block_pattern(b: sp.bsr_matrix) -> np.ndarray:
    bd = b.blocksize[0]
    ones = np.ones((b.indices.size, bd, bd))
    return sp.bsr_matrix((ones, b.indices, b.indptr), shape=b.shape).toarray() != 0


def triangular_bsr(rng, mb: int, bd: int, density: float, p: Precision) -> sp.bsr_matrix:
    """A sorted mb x mb BSR matrix, every diagonal block present, whose triangles (with their own diagonal, or a
    unit one) are strictly diagonally dominant: well conditioned whatever the fill mode and diagonal type."""
    pat = (sp.random(mb, mb, density=density, format="csr", random_state=rng) + sp.identity(mb)).tocsr()
    pat.sort_indices()
    per_row = max(1, int(np.diff(pat.indptr).max())) if mb else 1
    blocks = uniform(rng, (pat.nnz, bd, bd), p) / (2 * bd * per_row)
    for i in range(mb):
        q = pat.indptr[i] + np.searchsorted(pat.indices[pat.indptr[i]:pat.indptr[i + 1]], i)
        blocks[q][np.diag_indices(bd)] += 2 + rng.random(bd)
    return sp.bsr_matrix((blocks.astype(p.dtype), pat.indices, pat.indptr), shape=(mb * bd, mb * bd))


def hermitian_bsr(rng, mb: int, bd: int, density: float, p: Precision) -> sp.bsr_matrix:
    """A sorted Hermitian BSR matrix with a symmetric block pattern, every diagonal block present, strictly
    diagonally dominant with a positive diagonal (incomplete Cholesky runs without breakdown)."""
    pat = sp.random(mb, mb, density=density, format="csr", random_state=rng)
    pat = (pat + pat.T + sp.identity(mb)).tocsr()
    pat.sort_indices()
    full = sp.bsr_matrix((np.ones((pat.nnz, bd, bd)), pat.indices, pat.indptr), shape=(mb * bd, mb * bd)).toarray()
    dense = np.where(full != 0, uniform(rng, full.shape, p), 0)
    dense = dense + dense.conj().T
    dense += np.diag(np.abs(dense).sum(axis=1) + 1 + rng.random(mb * bd))
    blocks = np.array([dense[i * bd:(i + 1) * bd, j * bd:(j + 1) * bd] for i in range(mb)
                       for j in pat.indices[pat.indptr[i]:pat.indptr[i + 1]]]).reshape(-1, bd, bd)
    return sp.bsr_matrix((blocks.astype(p.dtype), pat.indices, pat.indptr), shape=(mb * bd, mb * bd))


def expect(exc, call, arg: str, index: int) -> None:
    with pytest.raises(exc) as e:
        call()
    assert e.value.arg == arg and e.value.index == index, (e.value.arg, e.value.index)


def raises_pivot(query, h, info, position: int) -> None:
    with pytest.raises(rs.SparseZeroPivotError) as err:
        query(h, info, None)
    assert err.value.status is rs.Status.zero_pivot and err.value.position == position


def r256(nbytes: int) -> int:
    return ((max(nbytes, 1) - 1) // 256 + 1) * 256


# --- bsrsm ---------------------------------------------------------------------------------------------------


@settings(max_examples=examples(60), deadline=None, derandomize=True)
@given(mb=st.sampled_from([0, 1, 3, 6]), nrhs=st.sampled_from([0, 1, 3, 17]), bd=st.sampled_from([1, 2, 3, 4]),
       density=st.sampled_from([0.2, 0.6]), direction=st.sampled_from([0, 1]), trans_a=st.sampled_from([N, T]),
       trans_x=st.sampled_from([N, T]), fill=st.sampled_from([0, 1]), unit=st.booleans(), p=st.sampled_from(SDCZ),
       base=st.sampled_from([0, 1]), pad_b=st.sampled_from([0, 2]), pad_x=st.sampled_from([0, 1]),
       seed=st.integers(0, 2**16))
def test_bsrsm_matches_a_dense_triangular_solve(mb, nrhs, bd, density, direction, trans_a, trans_x, fill, unit, p,
                                                base, pad_b, pad_x, seed):
    rng = np.random.default_rng(seed)
    b = triangular_bsr(rng, mb, bd, density, p)
    n, nnzb = mb * bd, b.indices.size
    rows, cols = (n, nrhs) if trans_x is N else (nrhs, n)  # B and X as stored, column-major
    ldb, ldx = max(rows + pad_b, 1), max(rows + pad_x, 1)
    B = np.full((ldb, cols), SENTINEL, p.dtype)
    B[:rows] = uniform(rng, (rows, cols), p)
    dB, dX = padded(B.ravel(order="F")), padded(np.full(ldx * cols, 3.5, p.dtype))
    alpha = (0.5 - 1.5j) if p.is_complex else -1.5
    h, descr, info = setup(base, fill, unit)
    dv, (dp, dc) = padded(bsr_values(b.data, direction)), structure(b, base)
    head = (direction, trans_a, trans_x, mb, nrhs, nnzb, descr, dv, dp, dc, bd, info)
    size = fn(p, "bsrsm_buffer_size")(h, *head)
    if mb == 0 or nrhs == 0:
        assert size == 0
    else:  # rocSPARSE's size without its radix sort's scratch
        isz = p.dtype.itemsize
        want = 256 + r256(4 * mb * ((nrhs - 1) // 16 + 1)) + 2 * r256(4 * mb)
        want += r256(isz * n * nrhs) if trans_x is N else 0
        want += r256(4 * nnzb) + r256(isz * nnzb * bd * bd) if trans_a is T else 0
        assert size == want
    buf = rm.empty(max(size, 1), np.uint8)
    fn(p, "bsrsm_analysis")(h, *head, FORCE, AUTO, buf)
    fn(p, "bsrsm_solve")(h, direction, trans_a, trans_x, mb, nrhs, nnzb, alpha, descr, dv, dp, dc, bd, info, dB, ldb,
                         dX, ldx, AUTO, buf)
    assert np.array_equal(dB.get()[:-3], B.ravel(order="F")) and np.all(dB.get()[-3:] == SENTINEL)  # B only read
    got = dX.get()
    assert np.all(got[-3:] == SENTINEL)
    X = got[:-3].reshape(cols, ldx).T
    assert np.all(X[rows:] == 3.5)  # the rows (columns) past op(X)'s in each column of X are not touched
    assert rs.bsrsm_zero_pivot(h, info, None) == -1
    if mb == 0 or nrhs == 0:
        assert np.all(X == 3.5)
        return
    dense = b.toarray().astype(wide(p))
    tri = np.tril(dense) if fill == 0 else np.triu(dense)
    if unit:
        np.fill_diagonal(tri, 1)
    op_a = tri if trans_a is N else tri.T
    op_b = B[:rows].astype(wide(p)) if trans_x is N else B[:rows].T.astype(wide(p))
    ref = sl.solve_triangular(op_a, alpha * op_b, lower=(fill == 0) == (trans_a is N))
    op_x = X[:rows] if trans_x is N else X[:rows].T
    np.testing.assert_allclose(op_x, ref, rtol=TOL[p.letter], atol=TOL[p.letter])


def test_bsrsm_in_place_device_alpha_reuse_and_int64():
    """B may be X (in place, either trans_X); alpha in device pointer mode; a repeated solve gives the same bits;
    reuse keeps the analysis; int64 index arrays."""
    p = rm.precision.D
    rng = np.random.default_rng(3)
    b = triangular_bsr(rng, 5, 3, 0.5, p)
    n, nnzb = 15, b.indices.size
    h, descr, info = setup(1, 1)
    for itype in (np.int32, np.int64):
        dv, (dp, dc) = rm.to_device(bsr_values(b.data, 1)), structure(b, 1, itype)
        for trans_x in (N, T):
            rows, cols = (n, 2) if trans_x is N else (2, n)
            B = rng.standard_normal((rows, cols))
            head = (1, T, trans_x, 5, 2, nnzb, descr, dv, dp, dc, 3, info)
            buf = rm.empty(rs.dbsrsm_buffer_size(h, *head), np.uint8)
            rs.dbsrsm_analysis(h, *head, FORCE, AUTO, buf)
            analysis = info.precond.analyses[("bsrsm", True, UPPER)]
            rs.dbsrsm_analysis(h, *head, REUSE, AUTO, buf)
            assert info.precond.analyses[("bsrsm", True, UPPER)] is analysis
            rs.set_pointer_mode(h, rs.PointerMode.device)
            alpha = rm.to_device(np.array([2.0]))
            dX = rm.to_device(np.zeros(rows * cols))
            solve = (1, T, trans_x, 5, 2, nnzb, alpha, descr, dv, dp, dc, 3, info)
            rs.dbsrsm_solve(h, *solve, rm.to_device(B.ravel(order="F")), rows, dX, rows, AUTO, buf)
            dB = rm.to_device(B.ravel(order="F"))
            rs.dbsrsm_solve(h, *solve, dB, rows, dB, rows, AUTO, buf)  # in place
            assert np.array_equal(dB.get(), dX.get())
            dB.set(B.ravel(order="F"))
            rs.dbsrsm_solve(h, *solve, dB, rows, dB, rows, AUTO, buf)
            assert np.array_equal(dB.get(), dX.get())  # bitwise reproducible
            pos = rm.to_device(np.array([99], np.int32))
            assert rs.bsrsm_zero_pivot(h, info, pos) is None and pos.get()[0] == -1
            rs.set_pointer_mode(h, rs.PointerMode.host)
            X = dX.get().reshape(cols, rows).T
            op_x = X if trans_x is N else X.T
            op_b = B if trans_x is N else B.T
            np.testing.assert_allclose(np.triu(b.toarray()).T @ op_x, 2 * op_b, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("base", [0, 1])
def test_bsrsm_zero_pivots(base):
    h, descr, info = setup(base)
    buf = rm.empty(1 << 14, np.uint8)
    B = rm.to_device(np.ones(8))
    # Block row 1 has no diagonal block (structural: found by the analysis, of the transpose too).
    dp, dc = rm.to_device(np.array([0, 1, 2], np.int32) + base), rm.to_device(np.array([0, 0], np.int32) + base)
    dv = rm.to_device(np.array([np.eye(2), np.ones((2, 2))]).ravel())
    for trans in (N, T):
        info = rs.create_mat_info()
        head = (0, trans, N, 2, 2, 2, descr, dv, dp, dc, 2, info)
        rs.dbsrsm_analysis(h, *head, FORCE, AUTO, buf)
        raises_pivot(rs.bsrsm_zero_pivot, h, info, 1 + base)
        rs.dbsrsm_solve(h, 0, trans, N, 2, 2, 2, 1.0, descr, dv, dp, dc, 2, info, B, 4, rm.empty(8), 4, AUTO, buf)
        raises_pivot(rs.bsrsm_zero_pivot, h, info, 1 + base)
    # Block row 1's diagonal block has a zero on its diagonal (numerical: found by the solve, which divides
    # nothing by it).  Device pointer mode writes the position as well.
    dp, dc = rm.to_device(np.array([0, 1, 3], np.int32) + base), rm.to_device(np.array([0, 0, 1], np.int32) + base)
    for direction in (0, 1):
        dv = rm.to_device(bsr_values(np.array([np.eye(2), np.eye(2), [[1.0, 5.0], [0, 0]]]), direction))
        for trans in (N, T):
            info = rs.create_mat_info()
            head = (direction, trans, T, 2, 2, 3, descr, dv, dp, dc, 2, info)
            rs.dbsrsm_analysis(h, *head, FORCE, AUTO, buf)
            assert rs.bsrsm_zero_pivot(h, info, None) == -1
            X = rm.empty(8)
            rs.dbsrsm_solve(h, direction, trans, T, 2, 2, 3, 1.0, descr, dv, dp, dc, 2, info, B, 2, X, 2, AUTO, buf)
            assert np.isfinite(X.get()).all()
            raises_pivot(rs.bsrsm_zero_pivot, h, info, 1 + base)
            rs.set_pointer_mode(h, rs.PointerMode.device)
            pos = rm.to_device(np.zeros(1, np.int32))
            with pytest.raises(rs.SparseZeroPivotError):
                rs.bsrsm_zero_pivot(h, info, pos)
            assert pos.get()[0] == 1 + base
            rs.set_pointer_mode(h, rs.PointerMode.host)
    # A unit diagonal has no pivots: the solve clears the analysis' structural one too.
    rs.set_mat_diag_type(descr, rs.DiagType.unit)
    rs.dbsrsm_solve(h, 1, T, T, 2, 2, 3, 1.0, descr, dv, dp, dc, 2, info, B, 2, rm.empty(8), 2, AUTO, buf)
    assert rs.bsrsm_zero_pivot(h, info, None) == -1
    # Before any analysis there is no pivot.
    assert rs.bsrsm_zero_pivot(h, rs.create_mat_info(), None) == -1


def test_bsrsm_analysis_sharing_and_clear():
    """The reuse policy takes over another routine's analysis of the same triangle, leaving the zero pivot as it
    was; bsrsm_clear frees the non-transposed analyses only (rocsparse_bsrsm_analysis.cpp, rocsparse_bsrsm.cpp)."""
    h, descr, info = setup(1)
    buf = rm.empty(1 << 14, np.uint8)
    # Two block rows of 2 x 2 blocks; bsrilu0 meets a zero pivot in block row 1.
    dp, dc = rm.to_device(np.array([1, 2, 4], np.int32)), rm.to_device(np.array([1, 1, 2], np.int32))
    dv = rm.to_device(np.array([4 * np.eye(2), np.ones((2, 2)), np.ones((2, 2))]).ravel())
    mat = (0, 2, 3, descr, dv, dp, dc, 2, info)
    rs.dbsrilu0_analysis(h, *mat, FORCE, AUTO, buf)
    rs.dbsrilu0(h, *mat, AUTO, buf)
    raises_pivot(rs.bsrilu0_zero_pivot, h, info, 2)
    analyses = info.precond.analyses
    head = (0, N, N, 2, 1, 3, descr, dv, dp, dc, 2, info)
    rs.dbsrsm_analysis(h, *head, REUSE, AUTO, buf)
    assert analyses[("bsrsm", False, LOWER)] is analyses[("bsrilu0", False, LOWER)]
    raises_pivot(rs.bsrsm_zero_pivot, h, info, 2)  # nothing ran: the pivot stays
    rs.dbsric0_analysis(h, *mat, REUSE, AUTO, buf)
    assert analyses[("bsric0", False, LOWER)] is analyses[("bsrilu0", False, LOWER)]
    raises_pivot(rs.bsric0_zero_pivot, h, info, 2)
    rs.dbsrsm_analysis(h, *head, FORCE, AUTO, buf)
    assert analyses[("bsrsm", False, LOWER)] is not analyses[("bsrilu0", False, LOWER)]
    assert rs.bsrsm_zero_pivot(h, info, None) == -1  # an analysis that runs resets it
    # bsrsv's analyses serve bsrsm's: upper (op none and transposed), lower transposed.
    info = rs.create_mat_info()
    dv = rm.to_device(np.array([4 * np.eye(2), np.ones((2, 2)), 4 * np.eye(2)]).ravel())
    for fill, trans in ((UPPER, N), (UPPER, T), (LOWER, T)):
        rs.set_mat_fill_mode(descr, fill)
        rs.dbsrsv_analysis(h, 0, trans, 2, 3, descr, dv, dp, dc, 2, info, FORCE, AUTO, buf)
        rs.dbsrsm_analysis(h, 0, trans, N, 2, 1, 3, descr, dv, dp, dc, 2, info, REUSE, AUTO, buf)
        assert info.precond.analyses[("bsrsm", trans is T, fill)] is info.precond.analyses[("bsrsv", trans is T, fill)]
    # bsrsm_clear: the transposed lower analysis stays and solves; the non-transposed one goes.
    rs.set_mat_fill_mode(descr, LOWER)
    rs.dbsrsm_analysis(h, 0, N, N, 2, 1, 3, descr, dv, dp, dc, 2, info, FORCE, AUTO, buf)
    rs.bsrsm_clear(h, info)
    assert ("bsrsm", False, LOWER) not in info.precond.analyses and ("bsrsm", True, LOWER) in info.precond.analyses
    assert ("bsrsv", True, LOWER) in info.precond.analyses  # a shared analysis stays with its other user
    x = rm.empty(4)
    rs.dbsrsm_solve(h, 0, T, N, 2, 1, 3, 2.0, descr, dv, dp, dc, 2, info, rm.to_device(np.ones(4)), 4, x, 4, AUTO, buf)
    np.testing.assert_allclose(x.get(), [0.25, 0.25, 0.5, 0.5])  # [4I, 1; 0, 4I] x = 2: x_1 = 1/2, x_0 = (2 - 1) / 4
    expect(rs.SparseInvalidPointerError,
           lambda: rs.dbsrsm_solve(h, 0, N, N, 2, 1, 3, 2.0, descr, dv, dp, dc, 2, info, x, 4, x, 4, AUTO, buf),
           "info", 14)


def test_bsrsm_statuses_in_rocsparse_order():
    h, descr, info = setup()
    eye = sp.bsr_matrix(np.eye(4), blocksize=(2, 2))
    dv, (dp, dc) = rm.to_device(eye.data.ravel()), structure(eye, 0)
    dB, buf = rm.empty(8), rm.empty(4096, np.uint8)
    head = [0, N, N, 2, 2, 2, descr, dv, dp, dc, 2, info]

    def call(name, changes, tail=()):
        args = list(head)
        if name == "solve":
            args[6:6] = [1.0]
            tail = tail or (dB, 4, dB, 4, AUTO, buf)
        elif name == "analysis":
            tail = tail or (FORCE, AUTO, buf)
        for k, v in changes.items():
            args[k] = v
        return lambda: fn("d", f"bsrsm_{name}")(h, *args, *tail)

    for name in ("buffer_size", "analysis", "solve"):
        s = 1 if name == "solve" else 0  # alpha shifts the arguments after nnzb
        expect(rs.SparseInvalidValueError, call(name, {0: 7, 3: -1}), "dir", 2)
        expect(rs.SparseInvalidValueError, call(name, {1: 9, 3: -1}), "trans_A", 3)
        expect(rs.SparseInvalidValueError, call(name, {2: 9, 3: -1}), "trans_X", 4)
        expect(rs.SparseInvalidSizeError, call(name, {3: -1, 4: -1}), "mb", 5)
        expect(rs.SparseInvalidSizeError, call(name, {4: -1, 5: -1}), "nrhs", 6)
        expect(rs.SparseInvalidSizeError, call(name, {5: -1, 6: None}), "nnzb", 7)
        expect(rs.SparseInvalidPointerError, call(name, {6 + s: None, 7 + s: None}), "descr", 8 + s)
        expect(rs.SparseInvalidPointerError, call(name, {7 + s: None, 8 + s: None}), "bsr_val", 9 + s)
        expect(rs.SparseInvalidPointerError, call(name, {8 + s: None, 9 + s: None}), "bsr_row_ptr", 10 + s)
        expect(rs.SparseInvalidPointerError, call(name, {9 + s: None, 10 + s: 0}), "bsr_col_ind", 11 + s)
        expect(rs.SparseInvalidSizeError, call(name, {10 + s: 0, 11 + s: None}), "block_dim", 12 + s)
        expect(rs.SparseInvalidSizeError, call(name, {10 + s: -2}), "block_dim", 12 + s)
        expect(rs.SparseInvalidPointerError, call(name, {11 + s: None}), "info", 13 + s)
        # Quick returns: mb == 0 or nrhs == 0 before every later check.
        for quick in ({3: 0}, {4: 0}):
            bad = {**quick, 5: -1, 6 + s: None, 7 + s: None, 11 + s: None}
            got = call(name, bad, (None, -1, None, -1, 9, None) if name == "solve" else
                       (9, 9, None) if name == "analysis" else ())()
            assert got == (0 if name == "buffer_size" else None)
        # Conjugate transposes are refused after every other check.
        expect(rs.SparseNotImplementedError, call(name, {1: CT}), "trans_A", 3)
        expect(rs.SparseNotImplementedError, call(name, {2: CT}), "trans_X", 4)
    rs.set_mat_type(descr, rs.MatrixType.triangular)
    expect(rs.SparseNotImplementedError, call("analysis", {7: None}), "descr", 8)
    rs.set_mat_type(descr, rs.MatrixType.general)
    rs.set_mat_storage_mode(descr, rs.StorageMode.unsorted)
    expect(rs.SparseRequiresSortedStorageError, call("solve", {8: None}), "descr", 9)
    rs.set_mat_storage_mode(descr, rs.StorageMode.sorted)
    # The analysis' own tail.
    expect(rs.SparseInvalidValueError, call("analysis", {}, (5, 9, None)), "analysis", 14)
    expect(rs.SparseInvalidValueError, call("analysis", {}, (FORCE, 9, None)), "solve", 15)
    expect(rs.SparseInvalidPointerError, call("analysis", {1: CT}, (FORCE, AUTO, None)), "temp_buffer", 16)
    # The solve's alpha, B, ldb, X, ldx, policy, temp_buffer.
    expect(rs.SparseInvalidPointerError, call("solve", {6: None, 7: None}), "alpha", 8)
    expect(rs.SparseInvalidPointerError, call("solve", {}, (None, 1, None, 1, 9, None)), "B", 15)
    expect(rs.SparseInvalidSizeError, call("solve", {}, (dB, -1, None, 1, 9, None)), "ldb", 16)
    expect(rs.SparseInvalidSizeError, call("solve", {}, (dB, 3, None, 1, 9, None)), "ldb", 16)  # < m = 4
    expect(rs.SparseInvalidSizeError, call("solve", {2: T}, (dB, 1, None, 1, 9, None)), "ldb", 16)  # < nrhs = 2
    # ldb = ldx = nrhs are enough for transposed B and X: every check passes, and the missing analysis is next.
    expect(rs.SparseInvalidPointerError, call("solve", {2: T}, (dB, 2, dB, 2, AUTO, buf)), "info", 14)
    expect(rs.SparseInvalidPointerError, call("solve", {}, (dB, 4, None, 1, 9, None)), "X", 17)
    expect(rs.SparseInvalidSizeError, call("solve", {}, (dB, 4, dB, 3, 9, None)), "ldx", 18)
    expect(rs.SparseInvalidSizeError, call("solve", {2: T}, (dB, 2, dB, 1, 9, None)), "ldx", 18)
    expect(rs.SparseInvalidValueError, call("solve", {}, (dB, 4, dB, 4, 9, None)), "policy", 19)
    expect(rs.SparseInvalidPointerError, call("solve", {1: CT}, (dB, 4, dB, 4, AUTO, None)), "temp_buffer", 20)
    expect(rs.SparseInvalidPointerError, call("solve", {}), "info", 14)  # no analysis
    expect(rs.SparseInvalidHandleError, lambda: rs.dbsrsm_buffer_size(None, *head), "handle", 1)
    expect(rs.SparseInvalidPointerError, lambda: rs.bsrsm_zero_pivot(h, None, None), "info", 2)
    expect(rs.SparseInvalidPointerError, lambda: rs.bsrsm_clear(h, None), "info", 2)
    rs.set_pointer_mode(h, rs.PointerMode.device)
    expect(rs.SparseInvalidPointerError, lambda: rs.bsrsm_zero_pivot(h, info, None), "position", 3)


# --- bsric0 --------------------------------------------------------------------------------------------------


def ic0_reference(dense: np.ndarray, pattern: np.ndarray) -> np.ndarray:
    """Scalar IC0 (A ~ L L^H) restricted to the lower triangle of ``pattern``, rows in order."""
    low = np.tril(pattern)
    lo = np.where(low, dense, 0).astype(np.complex128 if dense.dtype.kind == "c" else np.float64)
    for i in range(lo.shape[0]):
        for j in range(i):
            if low[i, j]:
                lo[i, j] = (lo[i, j] - lo[i, :j] @ np.conj(lo[j, :j])) / lo[j, j]
        lo[i, i] = np.sqrt(abs(lo[i, i] - lo[i, :i] @ np.conj(lo[i, :i])))
    return lo


@settings(max_examples=examples(40), deadline=None, derandomize=True)
@given(mb=st.sampled_from([0, 1, 3, 6]), bd=st.sampled_from([1, 2, 3, 4]), density=st.sampled_from([0.0, 0.2, 0.5]),
       direction=st.sampled_from([0, 1]), p=st.sampled_from(SDCZ), base=st.sampled_from([0, 1]),
       seed=st.integers(0, 2**16))
def test_bsric0_is_ic0_on_the_block_pattern(mb, bd, density, direction, p, base, seed):
    rng = np.random.default_rng(seed)
    b = hermitian_bsr(rng, mb, bd, density, p)
    nnzb, nval = b.indices.size, b.indices.size * bd * bd
    h, descr, info = setup(base)
    original = bsr_values(b.data, direction)
    dv, (dp, dc) = padded(original), structure(b, base)
    args = (direction, mb, nnzb, descr, dv, dp, dc, bd, info)
    size = fn(p, "bsric0_buffer_size")(h, *args)
    assert size == (0 if mb == 0 else 256 + 3 * r256(4 * mb))  # csrsv_buffer_size's, as rocSPARSE
    buf = rm.empty(max(size, 1), np.uint8)
    fn(p, "bsric0_analysis")(h, *args, FORCE, AUTO, buf)
    fn(p, "bsric0")(h, *args, AUTO, buf)
    got = dv.get()
    assert np.all(got[nval:] == SENTINEL)
    assert rs.bsric0_zero_pivot(h, info, None) == -1
    if mb == 0:
        return
    factored = sp.bsr_matrix((blocks_of(got[:nval], bd, direction), b.indices, b.indptr), shape=b.shape).toarray()
    pattern, dense = block_pattern(b), b.toarray()
    upper = np.triu(pattern, 1)
    assert np.array_equal(factored[upper], dense[upper])  # the strict upper part is not touched
    lo = np.tril(factored).astype(wide(p))
    ref = ic0_reference(dense.astype(wide(p)), pattern)
    np.testing.assert_allclose(lo, ref, rtol=TOL[p.letter], atol=TOL[p.letter])
    # Its defining equation: L L^H is A on A's (lower) block pattern.
    resid = np.where(np.tril(pattern), lo @ lo.conj().T - dense.astype(wide(p)), 0)
    assert np.abs(resid).max() <= 50 * TOL[p.letter] * np.abs(dense).max()


@pytest.mark.parametrize("base", [0, 1])
def test_bsric0_zero_pivots_and_clear(base):
    h, descr, info = setup(base)
    buf = rm.empty(1 << 14, np.uint8)
    # Block row 2 has no diagonal block: structural, found by the analysis (non-unit) and by the factorization
    # whatever the diagonal type; the block row stays as it was.
    dp, dc = rm.to_device(np.array([0, 1, 2, 3], np.int32) + base), rm.to_device(np.array([0, 1, 0], np.int32) + base)
    values = np.array([4 * np.eye(2), 9 * np.eye(2), np.ones((2, 2))]).ravel()
    for unit in (False, True):
        rs.set_mat_diag_type(descr, rs.DiagType.unit if unit else rs.DiagType.non_unit)
        info = rs.create_mat_info()
        dv = rm.to_device(values)
        args = (0, 3, 3, descr, dv, dp, dc, 2, info)
        rs.dbsric0_analysis(h, *args, FORCE, AUTO, buf)
        if unit:
            assert rs.bsric0_zero_pivot(h, info, None) == -1
        else:
            raises_pivot(rs.bsric0_zero_pivot, h, info, 2 + base)
        rs.dbsric0(h, *args, AUTO, buf)
        raises_pivot(rs.bsric0_zero_pivot, h, info, 2 + base)
        assert np.array_equal(dv.get(), np.concatenate([[2, 0, 0, 2, 3, 0, 0, 3], np.ones(4)]))
    rs.set_mat_diag_type(descr, rs.DiagType.non_unit)
    # Block row 1's diagonal block is [[1, 2], [2, 0]] with no block left of it: l_11 = sqrt(|0 - 4|) = 2, and
    # [[0, 0], [0, 4]]: l_00 = 0, a numerical zero pivot (divided as 1 by the entry below it); block row 2
    # depends on it and stays finite.
    dp = rm.to_device(np.array([0, 1, 2, 4], np.int32) + base)
    dc = rm.to_device(np.array([0, 1, 1, 2], np.int32) + base)
    for direction in (0, 1):
        info = rs.create_mat_info()
        blocks = np.array([[[1, 2.0], [2, 0]], [[0, 0.0], [3, 4]], [[1, 1.0], [1, 1]], 5 * np.eye(2)])
        dv = rm.to_device(bsr_values(blocks, direction))
        args = (direction, 3, 4, descr, dv, dp, dc, 2, info)
        rs.dbsric0_analysis(h, *args, FORCE, AUTO, buf)
        assert rs.bsric0_zero_pivot(h, info, None) == -1
        rs.dbsric0(h, *args, AUTO, buf)
        raises_pivot(rs.bsric0_zero_pivot, h, info, 1 + base)
        got = blocks_of(dv.get(), 2, direction)
        assert np.isfinite(got).all()
        np.testing.assert_allclose(got[0], [[1, 2], [2, 2]])
        np.testing.assert_allclose(got[1], [[0, 0], [3, np.sqrt(5)]])  # 3 / 1; sqrt(|4 - 9|)
        rs.set_pointer_mode(h, rs.PointerMode.device)
        pos = rm.to_device(np.zeros(1, np.int32))
        with pytest.raises(rs.SparseZeroPivotError):
            rs.bsric0_zero_pivot(h, info, pos)
        assert pos.get()[0] == 1 + base
        rs.set_pointer_mode(h, rs.PointerMode.host)
        # Only while bsric0's analysis is in the info (rocsparse_bsric0.cpp); the info's pivot stays for others.
        rs.bsric0_clear(h, info)
        assert rs.bsric0_zero_pivot(h, info, None) == -1
        raises_pivot(rs.bsrsm_zero_pivot, h, info, 1 + base)
        expect(rs.SparseInvalidPointerError, partial(rs.dbsric0, h, *args, AUTO, buf), "info", 10)


def test_bsric0_int64_and_statuses_in_rocsparse_order():
    p = rm.precision.D
    rng = np.random.default_rng(11)
    b = hermitian_bsr(rng, 4, 2, 0.5, p)
    h, descr, info = setup()
    dv, (dp, dc) = rm.to_device(bsr_values(b.data, 0)), structure(b, 0, np.int64)
    nnzb = b.indices.size
    args = [0, 4, nnzb, descr, dv, dp, dc, 2, info]
    size = rs.dbsric0_buffer_size(h, *args)
    assert size == 256 + 256 + r256(8 * 4) + 256  # int64 index arrays
    buf = rm.empty(size, np.uint8)
    rs.dbsric0_analysis(h, *args, FORCE, AUTO, buf)
    rs.dbsric0(h, *args, AUTO, buf)
    lo = np.tril(sp.bsr_matrix((dv.get().reshape(-1, 2, 2), b.indices, b.indptr), shape=b.shape).toarray())
    np.testing.assert_allclose(lo, ic0_reference(b.toarray(), block_pattern(b)), rtol=1e-12, atol=1e-12)

    def with_(changes, tail):
        a = list(args)
        for k, v in changes.items():
            a[k] = v
        return a + list(tail)

    for name, tail in (("bsric0_buffer_size", ()), ("bsric0_analysis", (FORCE, AUTO, buf)), ("bsric0", (AUTO, buf))):
        f = fn("d", name)
        expect(rs.SparseInvalidHandleError, partial(f, None, *with_({}, tail)), "handle", 1)
        expect(rs.SparseInvalidValueError, partial(f, h, *with_({0: 2, 1: -1}, tail)), "dir", 2)
        expect(rs.SparseInvalidSizeError, partial(f, h, *with_({1: -1, 2: -1}, tail)), "mb", 3)
        expect(rs.SparseInvalidSizeError, partial(f, h, *with_({2: -1, 3: None}, tail)), "nnzb", 4)
        expect(rs.SparseInvalidPointerError, partial(f, h, *with_({3: None, 4: None}, tail)), "descr", 5)
        expect(rs.SparseInvalidPointerError, partial(f, h, *with_({4: None, 5: None}, tail)), "bsr_val", 6)
        expect(rs.SparseInvalidPointerError, partial(f, h, *with_({5: None, 6: None}, tail)), "bsr_row_ptr", 7)
        expect(rs.SparseInvalidPointerError, partial(f, h, *with_({6: None, 7: 0}, tail)), "bsr_col_ind", 8)
        expect(rs.SparseInvalidSizeError, partial(f, h, *with_({7: 0, 8: None}, tail)), "block_dim", 9)
        expect(rs.SparseInvalidPointerError, partial(f, h, *with_({8: None}, tail)), "info", 10)
        # mb == 0 returns only after the checks.
        expect(rs.SparseInvalidPointerError, partial(f, h, *with_({1: 0, 3: None}, tail)), "descr", 5)
    assert rs.dbsric0_buffer_size(h, 0, 0, 0, descr, None, None, None, 1, info) == 0
    rs.dbsric0_analysis(h, 0, 0, 0, descr, None, None, None, 1, info, FORCE, AUTO, None)
    rs.dbsric0(h, 0, 0, 0, descr, None, None, None, 1, info, AUTO, None)  # no analysis needed for mb == 0
    expect(rs.SparseInvalidValueError, lambda: rs.dbsric0_analysis(h, *args, 4, AUTO, buf), "analysis", 11)
    expect(rs.SparseInvalidValueError, lambda: rs.dbsric0_analysis(h, *args, FORCE, 4, buf), "solve", 12)
    expect(rs.SparseInvalidPointerError, lambda: rs.dbsric0_analysis(h, *args, FORCE, AUTO, None), "temp_buffer", 13)
    expect(rs.SparseInvalidValueError, lambda: rs.dbsric0(h, *args, 4, None), "policy", 11)
    expect(rs.SparseInvalidPointerError, lambda: rs.dbsric0(h, *args, AUTO, None), "temp_buffer", 12)
    rs.set_mat_type(descr, rs.MatrixType.hermitian)
    expect(rs.SparseNotImplementedError, lambda: rs.dbsric0(h, *args, AUTO, buf), "descr", 5)
    rs.set_mat_type(descr, rs.MatrixType.general)
    rs.set_mat_storage_mode(descr, rs.StorageMode.unsorted)
    expect(rs.SparseRequiresSortedStorageError, lambda: rs.dbsric0_buffer_size(h, *args), "descr", 5)
    rs.set_mat_storage_mode(descr, rs.StorageMode.sorted)
    expect(rs.SparseInvalidPointerError, lambda: rs.bsric0_zero_pivot(h, None, None), "info", 2)
    expect(rs.SparseInvalidPointerError, lambda: rs.bsric0_clear(h, None), "info", 2)
    rs.bsric0_clear(h, info)
    expect(rs.SparseInvalidPointerError, lambda: rs.dbsric0(h, *args, AUTO, buf), "info", 10)


# --- bsrxmv --------------------------------------------------------------------------------------------------


@settings(max_examples=examples(50), deadline=None, derandomize=True)
@given(mb=st.sampled_from([0, 1, 4]), nb=st.sampled_from([0, 1, 3]), bd=st.sampled_from([2, 3, 4]),
       density=st.sampled_from([0.3, 0.8]), direction=st.sampled_from([0, 1]), p=st.sampled_from(SDCZ),
       base=st.sampled_from([0, 1]), masked=st.booleans(), trim=st.booleans(),
       scalars=st.sampled_from([(2.0, 0.5), (-1.0, 0.0), (0.0, 1.0), (0.0, 2.0), (1.5, 1.0)]),
       seed=st.integers(0, 2**16))
def test_bsrxmv_matches_a_masked_dense_product(mb, nb, bd, density, direction, p, base, masked, trim, scalars, seed):
    rng = np.random.default_rng(seed)
    pat = sp.random(mb, nb, density=density, format="csr", random_state=rng)
    pat.sort_indices()
    blocks = uniform(rng, (pat.nnz, bd, bd), p).astype(p.dtype)
    start, end = pat.indptr[:-1].copy(), pat.indptr[1:].copy()
    if trim:  # bsr_end_ptr may stop a block row early: the blocks after it are not part of the product
        end = start + rng.integers(0, end - start + 1) if mb else end
    kept = np.zeros(pat.nnz, bool)
    for i in range(mb):
        kept[start[i]:end[i]] = True
    A = sp.bsr_matrix((np.where(kept[:, None, None], blocks, 0), pat.indices, pat.indptr),
                      shape=(mb * bd, nb * bd)).toarray().astype(wide(p))
    rows = rng.permutation(mb)[:rng.integers(0, mb + 1)] if masked else np.arange(mb)
    x, y = uniform(rng, nb * bd, p).astype(p.dtype), uniform(rng, mb * bd, p).astype(p.dtype)
    alpha, beta = scalars
    if p.is_complex:
        alpha, beta = alpha * (1 - 0.5j) if alpha else 0.0, beta * (1 + 0.25j) if beta not in (0.0, 1.0) else beta
    h, descr, _ = setup(base)
    dy = padded(y)
    mask = rm.to_device((rows + base).astype(np.int32)) if masked else None
    fn(p, "bsrxmv")(h, direction, N, len(rows) if masked else 0, mb, nb, pat.nnz, alpha, descr,
                    padded(bsr_values(blocks, direction)), mask, rm.to_device((start + base).astype(np.int32)),
                    rm.to_device((end + base).astype(np.int32)), rm.to_device((pat.indices + base).astype(np.int32)),
                    bd, padded(x), beta, dy)
    got = dy.get()
    assert np.all(got[mb * bd:] == SENTINEL)
    want = y.astype(wide(p))
    product = alpha * (A @ x.astype(wide(p))) + beta * want if beta != 0 else alpha * (A @ x.astype(wide(p)))
    if mb and nb == 0:
        product = beta * want  # the quick return scales the masked rows
    if not (alpha == 0 and beta == 1):
        for r in rows:
            want[r * bd:(r + 1) * bd] = product[r * bd:(r + 1) * bd]
    untouched = np.ones(mb * bd, bool)
    for r in rows:
        untouched[r * bd:(r + 1) * bd] = False
    assert np.array_equal(got[:mb * bd][untouched], y[untouched])
    np.testing.assert_allclose(got[:mb * bd], want, rtol=TOL[p.letter], atol=TOL[p.letter])


def test_bsrxmv_beta_zero_quick_return_device_scalars_and_int64():
    h, descr, _ = setup()
    blocks = np.array([np.eye(2), 2 * np.eye(2)])
    dv = rm.to_device(blocks.ravel())
    start, end, cols = (rm.to_device(np.array(a, np.int32)) for a in ([0, 1], [1, 2], [0, 1]))
    # beta == 0 does not read y (NaN there vanishes), except in the mb == 0 || nb == 0 quick return, which
    # multiplies as rocSPARSE's (NaN * 0 stays NaN).
    y = rm.to_device(np.full(4, np.nan))
    rs.dbsrxmv(h, 0, N, 1, 2, 2, 2, 1.0, descr, dv, rm.to_device(np.array([1], np.int32)), start, end, cols, 2,
               rm.to_device(np.ones(4)), 0.0, y)
    got = y.get()
    assert np.isnan(got[:2]).all() and np.array_equal(got[2:], [2.0, 2.0])
    y = rm.to_device(np.array([np.nan, 1.0, 2.0, 3.0]))
    rs.dbsrxmv(h, 0, N, 0, 2, 0, 0, None, descr, None, None, None, None, None, 2, None, 0.0, y)  # no mask: all rows
    got = y.get()
    assert np.isnan(got[0]) and np.array_equal(got[1:], [0.0, 0.0, 0.0])
    y = rm.to_device(np.array([1.0, 2.0, 3.0, 4.0]))
    rs.dbsrxmv(h, 0, N, 1, 2, 0, 0, None, descr, None, rm.to_device(np.array([1], np.int32)), None, None, None, 2,
               None, 3.0, y)
    assert np.array_equal(y.get(), [1.0, 2.0, 9.0, 12.0])
    rs.dbsrxmv(h, 0, N, 1, 0, 0, 0, None, descr, None, rm.to_device(np.array([0], np.int32)), None, None, None, 2,
               None, 3.0, y)  # mb == 0: y has no block rows to scale
    assert np.array_equal(y.get(), [1.0, 2.0, 9.0, 12.0])
    # Device pointer mode scalars; a block row named twice is updated twice; int64 index arrays.
    rs.set_pointer_mode(h, rs.PointerMode.device)
    alpha, beta = rm.to_device(np.array([1.0])), rm.to_device(np.array([2.0]))
    i64 = [rm.to_device(np.array(a, np.int64)) for a in ([1, 1], [0, 1], [1, 2], [0, 1])]
    y = rm.to_device(np.ones(4))
    rs.dbsrxmv(h, 1, N, 2, 2, 2, 2, alpha, descr, dv, *i64, 2, rm.to_device(np.ones(4)), beta, y)
    assert np.array_equal(y.get(), [1.0, 1.0, 10.0, 10.0])  # 2 (2 * 1 + 2) + 2


def test_bsrxmv_statuses_in_rocsparse_order():
    h, descr, _ = setup()
    v, ip = rm.empty(32), rm.to_device(np.array([0, 1, 1], np.int32))
    args = [0, N, 1, 2, 2, 1, 1.0, descr, v, ip, ip, ip, ip, 2, v, 1.5, v]

    def call(**changes):
        a = list(args)
        for k, val in changes.items():
            a[int(k[1:])] = val
        return lambda: rs.dbsrxmv(h, *a)

    expect(rs.SparseInvalidHandleError, lambda: rs.dbsrxmv(None, *args), "handle", 1)
    expect(rs.SparseInvalidPointerError, call(a7=None, a0=9), "descr", 9)
    expect(rs.SparseInvalidValueError, call(a0=9, a1=9), "dir", 2)
    expect(rs.SparseInvalidValueError, call(a1=9), "trans", 3)
    expect(rs.SparseNotImplementedError, call(a1=T, a13=1), "trans", 3)
    expect(rs.SparseNotImplementedError, call(a13=1, a3=-1), "block_dim", 15)  # before the sizes
    rs.set_mat_type(descr, rs.MatrixType.symmetric)
    expect(rs.SparseNotImplementedError, call(a2=-1), "descr", 9)
    rs.set_mat_type(descr, rs.MatrixType.general)
    rs.set_mat_storage_mode(descr, rs.StorageMode.unsorted)
    expect(rs.SparseRequiresSortedStorageError, call(a2=-1), "descr", 9)
    rs.set_mat_storage_mode(descr, rs.StorageMode.sorted)
    expect(rs.SparseInvalidSizeError, call(a2=-1, a3=-1), "size_of_mask", 4)
    expect(rs.SparseInvalidSizeError, call(a3=-1, a4=-1), "mb", 5)
    expect(rs.SparseInvalidSizeError, call(a4=-1, a5=-1), "nb", 6)
    expect(rs.SparseInvalidSizeError, call(a5=-1, a13=0), "nnzb", 7)
    expect(rs.SparseInvalidSizeError, call(a13=0), "block_dim", 15)
    # Quick return (mb == 0 or nb == 0): beta and y when there is something to scale; alpha is not checked.
    expect(rs.SparseInvalidPointerError, call(a4=0, a6=None, a15=None), "beta", 17)
    expect(rs.SparseInvalidPointerError, call(a4=0, a6=None, a16=None), "y", 18)
    call(a3=0, a6=None, a9=None, a15=None, a16=None)()  # no mask, no rows: nothing to scale
    expect(rs.SparseInvalidPointerError, call(a6=None, a15=None), "alpha", 8)
    expect(rs.SparseInvalidPointerError, call(a15=None, a16=None), "beta", 17)
    call(a6=0.0, a15=1.0, a8=None, a9=None, a14=None)()  # alpha == 0, beta == 1: before the arrays
    expect(rs.SparseInvalidPointerError, call(a9=None, a10=None), "bsr_mask_ptr", 11)
    call(a2=0, a9=None)()  # no mask with size_of_mask == 0: every block row
    expect(rs.SparseInvalidPointerError, call(a10=None, a11=None), "bsr_row_ptr", 12)
    expect(rs.SparseInvalidPointerError, call(a11=None, a14=None), "bsr_end_ptr", 13)
    expect(rs.SparseInvalidPointerError, call(a14=None, a16=None), "x", 16)
    expect(rs.SparseInvalidPointerError, call(a16=None, a8=None), "y", 18)
    expect(rs.SparseInvalidPointerError, call(a8=None, a12=None), "bsr_val", 10)
    expect(rs.SparseInvalidPointerError, call(a12=None), "bsr_col_ind", 14)


# --- bsrpad_value --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("p", SDCZ, ids=lambda p: p.letter)
@pytest.mark.parametrize("m, bd", [(5, 3), (7, 4), (6, 4), (1, 2), (9, 3)])
@pytest.mark.parametrize("storage", ["sorted", "unsorted"])
def test_bsrpad_value_sets_the_padding_diagonal(p, m, bd, storage):
    """As csr2bsr leaves it: an m x m matrix padded with zeros to mb block_dim; bsrpad_value puts value on the
    padding's diagonal (rows m .. mb block_dim - 1) of the last diagonal block, nothing else."""
    rng = np.random.default_rng(m * bd)
    mb = -(-m // bd)
    dense = np.zeros((mb * bd, mb * bd), p.dtype)
    dense[:m, :m] = np.where(rng.random((m, m)) < 0.5, uniform(rng, (m, m), p), 0)
    dense[:m, :m] += np.eye(m, dtype=p.dtype)
    b = sp.bsr_matrix(dense, blocksize=(bd, bd))
    b.sort_indices()
    b.eliminate_zeros()
    ptr, ind, blocks = b.indptr, b.indices.copy(), b.data.copy()
    if storage == "unsorted":  # the last block row's blocks backwards
        lo, hi = ptr[-2], ptr[-1]
        ind[lo:hi], blocks[lo:hi] = ind[lo:hi][::-1].copy(), blocks[lo:hi][::-1].copy()
    h, descr, _ = setup(1)
    rs.set_mat_storage_mode(descr, rs.StorageMode[storage])
    value = (2.5 - 1j) if p.is_complex else 2.5
    for direction in (0, 1):
        dv = padded(bsr_values(blocks, direction))
        fn(p, "bsrpad_value")(h, m, mb, ind.size, bd, value, descr, dv, rm.to_device((ptr + 1).astype(np.int32)),
                              rm.to_device((ind + 1).astype(np.int32)))
        got = dv.get()
        assert np.all(got[-3:] == SENTINEL)
        want = dense.copy()
        want[np.arange(m, mb * bd), np.arange(m, mb * bd)] = value
        result = sp.bsr_matrix((blocks_of(got[:-3], bd, direction), ind, ptr), shape=dense.shape).toarray()
        assert np.array_equal(result, want)


def test_bsrpad_value_finds_only_what_rocsparse_finds_and_its_statuses():
    h, descr, _ = setup()
    # Sorted: the last block row's last block must be the diagonal one; here a block column past it comes last,
    # so nothing is set (rocSPARSE's sorted kernel looks at that block only).
    ptr, ind = rm.to_device(np.array([0, 1, 3], np.int32)), rm.to_device(np.array([0, 1, 2], np.int32))
    dv = rm.to_device(np.zeros(12))
    rs.dbsrpad_value(h, 3, 2, 3, 2, 7.0, descr, dv, ptr, ind)
    assert not dv.get().any()
    rs.set_mat_storage_mode(descr, rs.StorageMode.unsorted)  # the unsorted kernel finds it anywhere in the row
    rs.dbsrpad_value(h, 3, 2, 3, 2, 7.0, descr, dv, ptr, ind)
    assert np.array_equal(np.flatnonzero(dv.get()), [7]) and dv.get()[7] == 7.0
    rs.set_mat_storage_mode(descr, rs.StorageMode.sorted)
    # No block in the last block column: nothing.  m == mb block_dim, nnzb == 0: quick returns.
    rs.dbsrpad_value(h, 3, 2, 2, 2, 7.0, descr, rm.to_device(np.zeros(8)), rm.to_device(np.array([0, 1, 2], np.int32)),
                     rm.to_device(np.array([0, 0], np.int32)))
    rs.dbsrpad_value(h, 4, 2, 3, 2, rm.to_device(np.ones(1)), descr, dv, ptr, ind)  # value never read
    rs.dbsrpad_value(h, 3, 2, 0, 2, 1.0, descr, None, ptr, None)
    args = [3, 2, 3, 2, 7.0, descr, dv, ptr, ind]

    def call(**changes):
        a = list(args)
        for k, val in changes.items():
            a[int(k[1:])] = val
        return lambda: rs.dbsrpad_value(h, *a)

    expect(rs.SparseInvalidHandleError, lambda: rs.dbsrpad_value(None, *args), "handle", 1)
    expect(rs.SparseInvalidSizeError, call(a0=-1, a1=-1), "m", 2)
    expect(rs.SparseInvalidSizeError, call(a1=-1, a2=-1), "mb", 3)
    expect(rs.SparseInvalidSizeError, call(a2=-1, a3=0), "nnzb", 4)
    expect(rs.SparseInvalidSizeError, call(a3=0, a5=None), "block_dim", 5)
    expect(rs.SparseInvalidPointerError, call(a5=None, a6=None), "bsr_descr", 7)
    expect(rs.SparseInvalidPointerError, call(a6=None, a0=99), "bsr_val", 8)
    expect(rs.SparseInvalidPointerError, call(a7=None, a0=99), "bsr_row_ptr", 9)
    expect(rs.SparseInvalidPointerError, call(a8=None, a0=99), "bsr_col_ind", 10)
    expect(rs.SparseInvalidSizeError, call(a0=5), "m", 2)  # > mb block_dim
    expect(rs.SparseInvalidSizeError, call(a0=2), "m", 2)  # <= (mb - 1) block_dim: not the last block row
    expect(rs.SparseInvalidPointerError, call(a4=rm.to_device(np.ones(1))), "value", 6)  # a number, not a pointer
    rs.dbsrpad_value(h, 0, 0, 0, 3, 1.0, descr, None, None, None)


# --- checking mode and logging -------------------------------------------------------------------------------


def test_checking_mode_scans_what_the_kernels_address():
    h, descr, info = setup()
    buf = rm.empty(1 << 14, np.uint8)
    eye = np.array([2 * np.eye(2)] * 3).ravel()
    dp, bad_cols = rm.to_device(np.array([0, 1, 2, 3], np.int32)), rm.to_device(np.array([0, 1, 5], np.int32))
    with rm.checking():
        with pytest.raises(MemoryAccessFault, match="bsr_col_ind"):
            rs.dbsrsm_analysis(h, 0, N, N, 3, 1, 3, descr, rm.to_device(eye), dp, bad_cols, 2, info, FORCE, AUTO, buf)
            rm.device_synchronize()
        cols = rm.to_device(np.array([0, 1, 2], np.int32))
        dv = rm.to_device(eye)
        rs.dbsric0_analysis(h, 0, 3, 3, descr, dv, dp, cols, 2, info, FORCE, AUTO, buf)
        cols.set(np.array([0, 1, 5], np.int32))
        with pytest.raises(MemoryAccessFault, match="bsr_col_ind"):
            rs.dbsric0(h, 0, 3, 3, descr, dv, dp, cols, 2, info, AUTO, buf)
            rm.device_synchronize()
        assert np.array_equal(dv.get(), eye)  # the values stay as they were
        y = rm.to_device(np.ones(6))
        good = rm.to_device(np.array([0, 1, 2], np.int32))
        for mask, end, col, what in ((np.array([3]), [1, 2, 3], [0, 1, 2], "bsr_mask_ptr"),
                                     (np.array([1]), [1, 9, 3], [0, 1, 2], "bsr_end_ptr"),
                                     (np.array([2]), [1, 2, 3], [0, 1, 4], "bsr_col_ind")):
            with pytest.raises(MemoryAccessFault, match=what):
                rs.dbsrxmv(h, 0, N, 1, 3, 3, 3, 1.0, descr, rm.to_device(eye), rm.to_device(mask.astype(np.int32)),
                           good, rm.to_device(np.array(end, np.int32)), rm.to_device(np.array(col, np.int32)), 2,
                           rm.to_device(np.ones(6)), 0.0, y)
                rm.device_synchronize()
            assert np.array_equal(y.get(), np.ones(6))
        # A column outside the masked rows' blocks is never read: no fault.
        rs.dbsrxmv(h, 0, N, 1, 3, 3, 3, 1.0, descr, rm.to_device(eye), rm.to_device(np.array([0], np.int32)), good,
                   rm.to_device(np.array([1, 2, 3], np.int32)), rm.to_device(np.array([0, 7, 7], np.int32)), 2,
                   rm.to_device(np.ones(6)), 0.0, y)
        assert np.array_equal(y.get(), [2, 2, 1, 1, 1, 1])
        with pytest.raises(MemoryAccessFault, match="bsr_row_ptr"):
            rs.dbsrpad_value(h, 5, 3, 3, 2, 1.0, descr, rm.to_device(eye), rm.to_device(np.array([0, 1, 4, 3],
                                                                                                  np.int32)), good)
            rm.device_synchronize()


def test_trace_lines(tmp_path, monkeypatch):
    path = tmp_path / "trace.log"
    monkeypatch.setenv("ROCSPARSE_LAYER", "1")
    monkeypatch.setenv("ROCSPARSE_LOG_TRACE_PATH", str(path))
    h, descr, info = setup()
    dv, ip = rm.to_device(np.array([1.0, 0, 0, 1])), rm.to_device(np.array([0, 1], np.int32))
    assert rs.dbsrsm_buffer_size(h, 0, N, T, 1, 2, 1, descr, dv, ip, ip[:1], 2, info) > 0
    rs.dbsrpad_value(h, 2, 1, 1, 2, 3.0, descr, dv, ip, ip[:1])
    from rocmath.log import close_logs

    close_logs()
    lines = path.read_text().splitlines()
    assert lines[0].startswith("rocsparse_dbsrsm_buffer_size,") and lines[0].count(",") == 13
    assert lines[1].startswith("rocsparse_dbsrpad_value,") and ",2,3.0," in lines[1]
