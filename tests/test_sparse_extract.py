"""rocmath.sparse's extract (against scipy.sparse.tril / triu), sparse_to_sparse (every format pair against SciPy's
conversions, the statuses of those rocSPARSE does not make), color_info, isctr, set_identity_permutation,
get_git_rev and memstat_report, with rocSPARSE's argument checks."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.sparse as rs
from rocmath.precision import C, D, Precision
from rocmath.testing import examples

I32, I64 = rs.IndexType.i32, rs.IndexType.i64
FORMATS = ("coo", "coo_aos", "csr", "csc", "ell", "bsr")
DIRECT = {("coo", "coo_aos"), ("coo", "csr"), ("coo_aos", "coo"), ("coo_aos", "csr"), ("csr", "coo"),
          ("csr", "coo_aos"), ("csr", "csc"), ("csr", "ell"), ("csr", "bsr"), ("csc", "csr"), ("ell", "csr"),
          ("bsr", "csr")} | {(f, f) for f in FORMATS}
BD = 2


def rnd_matrix(rng: np.random.Generator, m: int, n: int, density: float, p: Precision) -> sp.csr_matrix:
    a = sp.random(m, n, density=density, format="csr", random_state=rng, dtype=np.float64)
    a.data = rng.standard_normal(a.nnz) + 2.0
    if p.is_complex:
        a.data = a.data + 1j * rng.standard_normal(a.nnz)
    a = a.astype(p.dtype).tocsr()
    a.sort_indices()
    return a


def d(x: np.ndarray) -> rm.DeviceArray:
    return rm.to_device(np.ascontiguousarray(x))


def dt(p: Precision) -> rs.Datatype:
    return rs.Datatype.of(p.dtype)


# --- extract ---------------------------------------------------------------------------------------


def extract_run(h, a: sp.csr_matrix, fmt: str, fill: int, diag: int, base: int, p: Precision):
    m, n = a.shape
    it = I32
    if fmt == "csr":
        S = rs.create_csr_descr(m, n, a.nnz, d((a.indptr + base).astype(np.int32)),
                                d((a.indices + base).astype(np.int32)), d(a.data), it, it, base, dt(p))
        tptr = rm.zeros(m + 1, np.int32)
        T = rs.create_csr_descr(m, n, 0, tptr, None, None, it, it, base, dt(p))
    else:
        c = a.tocsc()
        c.sort_indices()
        S = rs.create_csc_descr(m, n, c.nnz, d((c.indptr + base).astype(np.int32)),
                                d((c.indices + base).astype(np.int32)), d(c.data), it, it, base, dt(p))
        tptr = rm.zeros(n + 1, np.int32)
        T = rs.create_csc_descr(m, n, 0, tptr, None, None, it, it, base, dt(p))
    rs.spmat_set_attribute(T, rs.SpMatAttribute.fill_mode, fill)
    rs.spmat_set_attribute(T, rs.SpMatAttribute.diag_type, diag)
    descr = rs.create_extract_descr(S, T, rs.ExtractAlg.default)
    size = rs.extract_buffer_size(h, descr, S, T, rs.ExtractStage.analysis)
    assert size > 0
    rs.extract(h, descr, S, T, rs.ExtractStage.analysis, size, rm.empty(size, np.uint8))
    nnz = rs.extract_nnz(h, descr)
    assert rs.extract_buffer_size(h, descr, S, T, rs.ExtractStage.compute) == 0
    ind, val = rm.full(nnz + 2, -9, np.int32), rm.full(nnz + 2, -9, p.dtype)
    rs.spmat_set_nnz(T, nnz)
    (rs.csr_set_pointers if fmt == "csr" else rs.csc_set_pointers)(T, tptr, ind, val)
    rs.extract(h, descr, S, T, rs.ExtractStage.compute, 0, None)
    rs.destroy_extract_descr(descr)
    got_ind, got_val = ind.get(), val.get()
    assert np.all(got_ind[nnz:] == -9) and np.all(got_val[nnz:] == -9)  # nothing written past the entries
    cls = sp.csr_matrix if fmt == "csr" else sp.csc_matrix
    return cls((got_val[:nnz], got_ind[:nnz] - base, tptr.get() - base), shape=(m, n)), nnz


@settings(max_examples=examples(20), deadline=None, derandomize=True)
@given(fmt=st.sampled_from(["csr", "csc"]), fill=st.sampled_from([0, 1]), diag=st.sampled_from([0, 1]),
       base=st.sampled_from([0, 1]), p=st.sampled_from([D, C]),
       shape=st.sampled_from([(1, 1), (7, 7), (9, 5), (4, 11)]), seed=st.integers(0, 2**16))
def test_extract_matches_tril_triu(fmt, fill, diag, base, p, shape, seed):
    rng = np.random.default_rng(seed)
    a = rnd_matrix(rng, *shape, 0.45, p)
    h = rs.create_handle()
    got, nnz = extract_run(h, a, fmt, fill, diag, base, p)
    k = (-1 if diag else 0) if fill == 0 else (1 if diag else 0)
    ref = sp.tril(a, k) if fill == 0 else sp.triu(a, k)
    assert nnz == ref.nnz
    assert np.array_equal(got.toarray(), ref.toarray())
    # each row (column) in storage order: the indices stay sorted
    assert got.has_sorted_indices or nnz == 0


def test_extract_statuses():
    h = rs.create_handle()
    a = rnd_matrix(np.random.default_rng(0), 4, 4, 0.5, D)
    S = rs.create_csr_descr(4, 4, a.nnz, d(a.indptr.astype(np.int32)), d(a.indices.astype(np.int32)), d(a.data), I32,
                            I32, 0, rs.Datatype.f64_r)
    T = rs.create_csr_descr(4, 4, 0, rm.zeros(5, np.int32), None, None, I32, I32, 0, rs.Datatype.f64_r)
    for args, exc, arg, index in [((None, T, 0), rs.SparseInvalidPointerError, "source", 2),
                                  ((S, None, 0), rs.SparseInvalidPointerError, "target", 3),
                                  ((S, T, 1), rs.SparseInvalidValueError, "alg", 4)]:
        with pytest.raises(exc) as e:
            rs.create_extract_descr(*args)
        assert (e.value.arg, e.value.index) == (arg, index)
    csc = rs.create_csc_descr(4, 4, 0, rm.zeros(5, np.int32), None, None, I32, I32, 0, rs.Datatype.f64_r)
    with pytest.raises(rs.SparseInternalError):  # formats differ
        rs.create_extract_descr(S, csc, 0)
    coo = rs.create_coo_descr(4, 4, 0, None, None, None, I32, 0, rs.Datatype.f64_r)
    with pytest.raises(rs.SparseNotImplementedError):
        rs.create_extract_descr(coo, rs.create_coo_descr(4, 4, 0, None, None, None, I32, 0, rs.Datatype.f64_r), 0)
    U = rs.create_csr_descr(4, 4, 0, rm.zeros(5, np.int32), None, None, I32, I32, 0, rs.Datatype.f64_r)
    rs.spmat_set_attribute(U, rs.SpMatAttribute.storage_mode, rs.StorageMode.unsorted)
    with pytest.raises(rs.SparseInternalError):  # storage modes differ
        rs.create_extract_descr(S, U, 0)
    descr = rs.create_extract_descr(S, T, 0)
    assert rs.extract_nnz(h, descr) == 0  # before any analysis
    # buffer_size: handle, descr, source, target, stage; extract: then the buffer.
    for f, tail in ((rs.extract_buffer_size, ()), (rs.extract, (16, rm.empty(16, np.uint8)))):
        with pytest.raises(rs.SparseInvalidHandleError):
            f(None, descr, S, T, 0, *tail)
        for k, (bad, exc, arg) in enumerate([(None, rs.SparseInvalidPointerError, "descr"),
                                             (None, rs.SparseInvalidPointerError, "source"),
                                             (None, rs.SparseInvalidPointerError, "target"),
                                             (2, rs.SparseInvalidValueError, "stage")]):
            args = [descr, S, T, 0]
            args[k] = bad
            with pytest.raises(exc) as e:
                f(h, *args, *tail)
            assert (e.value.arg, e.value.index) == (arg, k + 2)
    with pytest.raises(rs.SparseInvalidPointerError) as e:
        rs.extract(h, descr, S, T, 0, 16, None)
    assert (e.value.arg, e.value.index) == ("buffer", 7)
    rs.extract(h, descr, S, T, 0, 0, None)
    with pytest.raises(rs.SparseInvalidPointerError) as e:  # compute without the target's arrays
        rs.extract(h, descr, S, T, 1, 0, None)
    assert e.value.arg == "target"
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.extract_nnz(h, None)
    rs.destroy_extract_descr(descr)
    rs.destroy_extract_descr(None)
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.extract_nnz(h, descr)


# --- sparse_to_sparse ------------------------------------------------------------------------------


def source(fmt: str, a: sp.csr_matrix, base: int, p: Precision, itype=I32):
    """A descriptor of ``fmt`` holding ``a`` (m, n multiples of BD) and the arrays that keep it alive."""
    m, n = a.shape
    ix = itype.dtype
    t = dt(p)
    if fmt == "csr":
        return rs.create_csr_descr(m, n, a.nnz, d((a.indptr + base).astype(ix)), d((a.indices + base).astype(ix)),
                                   d(a.data), itype, itype, base, t)
    if fmt == "csc":
        c = a.tocsc()
        c.sort_indices()
        return rs.create_csc_descr(m, n, c.nnz, d((c.indptr + base).astype(ix)), d((c.indices + base).astype(ix)),
                                   d(c.data), itype, itype, base, t)
    coo = a.tocoo()
    if fmt == "coo":
        return rs.create_coo_descr(m, n, coo.nnz, d((coo.row + base).astype(ix)), d((coo.col + base).astype(ix)),
                                   d(coo.data), itype, base, t)
    if fmt == "coo_aos":
        pairs = np.stack([coo.row, coo.col], axis=1).reshape(-1) + base
        return rs.create_coo_aos_descr(m, n, coo.nnz, d(pairs.astype(ix)), d(coo.data), itype, base, t)
    if fmt == "ell":
        lengths = np.diff(a.indptr)
        w = int(lengths.max()) if m else 0
        col = np.full((w, m), -1, ix)
        val = np.zeros((w, m), p.dtype)
        for i in range(m):
            r = slice(a.indptr[i], a.indptr[i + 1])
            col[:lengths[i], i] = a.indices[r] + base
            val[:lengths[i], i] = a.data[r]
        return rs.create_ell_descr(m, n, d(col.reshape(-1)), d(val.reshape(-1)), w, itype, base, t)
    b = sp.bsr_matrix(a, blocksize=(BD, BD))
    b.sort_indices()
    return rs.create_bsr_descr(m // BD, n // BD, b.nnz // (BD * BD), rs.Direction.row, BD,
                               d((b.indptr + base).astype(ix)), d((b.indices + base).astype(ix)),
                               d(b.data.reshape(-1)), itype, itype, base, t)


def empty_target(fmt: str, m: int, n: int, base: int, p: Precision, itype=I32, block_dir=rs.Direction.column):
    t = dt(p)
    ix = itype.dtype
    if fmt == "csr":
        return rs.create_csr_descr(m, n, 0, rm.zeros(m + 1, ix), None, None, itype, itype, base, t)
    if fmt == "csc":
        return rs.create_csc_descr(m, n, 0, rm.zeros(n + 1, ix), None, None, itype, itype, base, t)
    if fmt == "coo":
        return rs.create_coo_descr(m, n, 0, None, None, None, itype, base, t)
    if fmt == "coo_aos":
        return rs.create_coo_aos_descr(m, n, 0, None, None, itype, base, t)
    if fmt == "ell":
        return rs.create_ell_descr(m, n, None, None, 0, itype, base, t)
    return rs.create_bsr_descr(m // BD, n // BD, 0, block_dir, BD, rm.zeros(m // BD + 1, ix), None, None, itype,
                               itype, base, t)


def attach(T, fmt: str, p: Precision, itype=I32) -> None:
    """The target's arrays, sized by the analysis stage."""
    ix = itype.dtype
    nnz = rs.spmat_get_nnz(T) if fmt != "ell" else T.rows * rs.ell_get(T)[4]
    if fmt == "csr":
        rs.csr_set_pointers(T, T.row_data, rm.empty(max(nnz, 1), ix), rm.empty(max(nnz, 1), p.dtype))
    elif fmt == "csc":
        rs.csc_set_pointers(T, T.col_data, rm.empty(max(nnz, 1), ix), rm.empty(max(nnz, 1), p.dtype))
    elif fmt == "coo":
        rs.coo_set_pointers(T, rm.empty(max(nnz, 1), ix), rm.empty(max(nnz, 1), ix), rm.empty(max(nnz, 1), p.dtype))
    elif fmt == "coo_aos":
        rs.coo_aos_set_pointers(T, rm.empty(max(2 * nnz, 1), ix), rm.empty(max(nnz, 1), p.dtype))
    elif fmt == "ell":
        rs.ell_set_pointers(T, rm.empty(max(nnz, 1), ix), rm.empty(max(nnz, 1), p.dtype))
    else:
        rs.bsr_set_pointers(T, T.row_data, rm.empty(max(nnz, 1), ix), rm.empty(max(nnz, 1) * BD * BD, p.dtype))


def dense(fmt: str, M, base: int) -> np.ndarray:
    """A descriptor's matrix (SciPy's conversions of its arrays)."""
    m, n, nnz = M.rows, M.cols, M.nnz
    if fmt == "csr":
        a = sp.csr_matrix((M.val_data.get()[:nnz], M.col_data.get()[:nnz] - base, M.row_data.get() - base), (m, n))
        assert a.has_sorted_indices
        return a.toarray()
    if fmt == "csc":
        a = sp.csc_matrix((M.val_data.get()[:nnz], M.row_data.get()[:nnz] - base, M.col_data.get() - base), (m, n))
        assert a.has_sorted_indices
        return a.toarray()
    if fmt == "coo":
        row, col = M.row_data.get()[:nnz] - base, M.col_data.get()[:nnz] - base
        assert np.all(np.diff(row) >= 0)  # row-sorted, as rocSPARSE's COO
        return sp.coo_matrix((M.val_data.get()[:nnz], (row, col)), (m, n)).toarray()
    if fmt == "coo_aos":
        pairs = M.ind_data.get()[:2 * nnz].reshape(-1, 2) - base
        return sp.coo_matrix((M.val_data.get()[:nnz], (pairs[:, 0], pairs[:, 1])), (m, n)).toarray()
    if fmt == "ell":
        w = M.ell_width
        col, val = M.col_data.get()[:m * w].reshape(w, m), M.val_data.get()[:m * w].reshape(w, m)
        out = np.zeros((m, n), val.dtype)
        for i in range(m):
            for q in range(w):
                if col[q, i] - base < 0:
                    break
                out[i, col[q, i] - base] += val[q, i]
        return out
    blocks = M.val_data.get()[:nnz * BD * BD].reshape(nnz, BD, BD)
    if M.block_dir is rs.Direction.column:
        blocks = blocks.transpose(0, 2, 1)
    return sp.bsr_matrix((blocks, M.col_data.get()[:nnz] - base, M.row_data.get() - base),
                         shape=(m * BD, n * BD)).toarray()


def convert(h, S, T, tfmt: str, p: Precision, permissive: bool, itype=I32) -> None:
    descr = rs.create_sparse_to_sparse_descr(S, T, rs.SparseToSparseAlg.default)
    if permissive:
        rs.sparse_to_sparse_permissive(descr)
    size = rs.sparse_to_sparse_buffer_size(h, descr, S, T, rs.SparseToSparseStage.analysis)
    assert size == 0
    rs.sparse_to_sparse(h, descr, S, T, rs.SparseToSparseStage.analysis, size, None)
    attach(T, tfmt, p, itype)
    size = rs.sparse_to_sparse_buffer_size(h, descr, S, T, rs.SparseToSparseStage.compute)
    rs.sparse_to_sparse(h, descr, S, T, rs.SparseToSparseStage.compute, size, None)
    rs.destroy_sparse_to_sparse_descr(descr)


@pytest.fixture(scope="module")
def matrices():
    rng = np.random.default_rng(42)
    out = {}
    for p in (D, C):
        a = rnd_matrix(rng, 6, 8, 0.3, p).tolil()
        a[5, :] = 0  # an empty row
        a = a.tocsr()
        a.eliminate_zeros()
        a.sort_indices()
        out[p.letter] = a
    return out


@pytest.mark.parametrize("sfmt", FORMATS)
@pytest.mark.parametrize("tfmt", FORMATS)
def test_sparse_to_sparse_every_pair(sfmt, tfmt, matrices):
    p = D if (FORMATS.index(sfmt) + FORMATS.index(tfmt)) % 2 == 0 else C
    base = FORMATS.index(sfmt) % 2
    a = matrices[p.letter]
    h = rs.create_handle()
    S = source(sfmt, a, base, p)
    # (a copy copies the blocks as they are: the target keeps its direction, as rocSPARSE's)
    block_dir = rs.Direction.row if sfmt == "bsr" else rs.Direction.column
    T = empty_target(tfmt, *a.shape, base, p, block_dir=block_dir)
    if (sfmt, tfmt) not in DIRECT:
        with pytest.raises(rs.SparseNotImplementedError):  # an intermediate CSR matrix needs permission
            convert(h, S, T, tfmt, p, False)
        T = empty_target(tfmt, *a.shape, base, p, block_dir=block_dir)
    convert(h, S, T, tfmt, p, (sfmt, tfmt) not in DIRECT)
    np.testing.assert_array_equal(dense(tfmt, T, base), a.toarray())
    expected_nnz = {"ell": 6 * T.ell_width, "bsr": sp.bsr_matrix(a, blocksize=(BD, BD)).nnz // (BD * BD)}
    if sfmt == "bsr" and tfmt != "bsr":  # every element of every block, zeros included
        expected_nnz["csr"] = expected_nnz["csc"] = expected_nnz["coo"] = expected_nnz["coo_aos"] = \
            expected_nnz["bsr"] * BD * BD
    if sfmt == "ell" and tfmt == "ell":
        expected_nnz["ell"] = S.nnz
    assert T.nnz == expected_nnz.get(tfmt, a.nnz)
    assert np.array_equal(dense(sfmt, S, base), a.toarray())  # the source is not written


def test_sparse_to_sparse_index_types(matrices):
    a = matrices["d"]
    h = rs.create_handle()
    # COO indices are converted between index types (rocSPARSE's convert_array) ...
    S64 = source("csr", a, 1, D, I64)
    T32 = empty_target("coo", *a.shape, 1, D, I32)
    convert(h, S64, T32, "coo", D, False, I32)
    np.testing.assert_array_equal(dense("coo", T32, 1), a.toarray())
    # ... csr -> csc takes its types as they are: mismatched ones are not_implemented.
    T = empty_target("csc", *a.shape, 1, D, I32)
    with pytest.raises(rs.SparseNotImplementedError):
        convert(h, S64, T, "csc", D, False, I32)


def test_sparse_to_sparse_statuses(matrices):
    a = matrices["d"]
    h = rs.create_handle()
    S = source("csr", a, 0, D)
    T = empty_target("coo", *a.shape, 0, D)
    for args, exc, arg, index in [((None, T, 0), rs.SparseInvalidPointerError, "source", 2),
                                  ((S, None, 0), rs.SparseInvalidPointerError, "target", 3),
                                  ((S, T, 4), rs.SparseInvalidValueError, "alg", 4)]:
        with pytest.raises(exc) as e:
            rs.create_sparse_to_sparse_descr(*args)
        assert (e.value.arg, e.value.index) == (arg, index)
    descr = rs.create_sparse_to_sparse_descr(S, T, 0)
    for f, tail in ((rs.sparse_to_sparse_buffer_size, ()), (rs.sparse_to_sparse, (8, rm.empty(8, np.uint8)))):
        with pytest.raises(rs.SparseInvalidHandleError):
            f(None, descr, S, T, 0, *tail)
        for k, (bad, exc, arg) in enumerate([(None, rs.SparseInvalidPointerError, "descr"),
                                             (None, rs.SparseInvalidPointerError, "source"),
                                             (None, rs.SparseInvalidPointerError, "target"),
                                             (5, rs.SparseInvalidValueError, "stage")]):
            args = [descr, S, T, 0]
            args[k] = bad
            with pytest.raises(exc) as e:
                f(h, *args, *tail)
            assert (e.value.arg, e.value.index) == (arg, k + 2)
    with pytest.raises(rs.SparseInvalidPointerError) as e:
        rs.sparse_to_sparse(h, descr, S, T, 0, 8, None)
    assert (e.value.arg, e.value.index) == ("buffer", 7)
    # The matrix descriptors must agree (type_mismatch), blocked ELL is not_implemented, batches invalid_size.
    T1 = empty_target("coo", *a.shape, 1, D)
    with pytest.raises(rs.SparseTypeMismatchError):
        rs.sparse_to_sparse(h, descr, S, T1, 0, 0, None)
    Tf = empty_target("coo", *a.shape, 0, D)
    rs.spmat_set_attribute(Tf, rs.SpMatAttribute.fill_mode, rs.FillMode.upper)
    with pytest.raises(rs.SparseTypeMismatchError):
        rs.sparse_to_sparse_buffer_size(h, descr, S, Tf, 0)
    bell = rs.create_bell_descr(6, 8, rs.Direction.row, 2, 4, rm.zeros(12, np.int32), rm.zeros(48), I32, 0,
                                rs.Datatype.f64_r)
    for s, t in ((S, bell), (bell, S)):
        permissive = rs.create_sparse_to_sparse_descr(s, t, 0)
        rs.sparse_to_sparse_permissive(permissive)
        with pytest.raises(rs.SparseNotImplementedError):
            rs.sparse_to_sparse_buffer_size(h, permissive, s, t, 0)
    coo_batched = source("coo", a, 0, D)
    rs.coo_set_strided_batch(coo_batched, 2, a.nnz)
    batched = rs.create_sparse_to_sparse_descr(coo_batched, T, 0)
    with pytest.raises(rs.SparseInvalidSizeError):
        rs.sparse_to_sparse(h, batched, coo_batched, T, 0, 0, None)
    csr_batched = source("csr", a, 0, D)
    rs.csr_set_strided_batch(csr_batched, 2, 7, a.nnz)
    with pytest.raises(rs.SparseNotImplementedError):
        rs.create_sparse_to_sparse_descr(csr_batched, T, 0)
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.sparse_to_sparse_permissive(None)
    rs.destroy_sparse_to_sparse_descr(descr)
    rs.destroy_sparse_to_sparse_descr(None)
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.sparse_to_sparse_buffer_size(h, descr, S, T, 0)


# --- color_info, set_identity_permutation, isctr, get_git_rev, memstat_report ------------------------------


def test_color_info_lifecycle():
    a, b = rs.create_color_info(), rs.create_color_info()
    rs.copy_color_info(a, b)
    for args, arg, index in (((None, b), "dest", 1), ((a, None), "src", 2), ((a, a), "src", 2)):
        with pytest.raises(rs.SparseInvalidPointerError) as e:
            rs.copy_color_info(*args)
        assert (e.value.arg, e.value.index) == (arg, index)
    rs.destroy_color_info(a)
    rs.destroy_color_info(None)
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.copy_color_info(a, b)
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.destroy_color_info(a)


@pytest.mark.parametrize("itype", [I32, I64])
def test_set_identity_permutation(itype):
    h = rs.create_handle()
    p = rm.full(9, -3, itype.dtype)
    rs.set_identity_permutation(h, 7, p, itype)
    assert np.array_equal(p.get(), [0, 1, 2, 3, 4, 5, 6, -3, -3])
    rs.set_identity_permutation(h, 0, None, itype)
    with pytest.raises(rs.SparseInvalidHandleError):
        rs.set_identity_permutation(None, 7, p, itype)
    with pytest.raises(rs.SparseNotImplementedError):
        rs.set_identity_permutation(h, 7, p, rs.IndexType.u16)
    with pytest.raises(rs.SparseInvalidValueError) as e:
        rs.set_identity_permutation(h, 7, p, 9)
    assert (e.value.arg, e.value.index) == ("indextype", 4)
    with pytest.raises(rs.SparseInvalidSizeError):
        rs.set_identity_permutation(h, -1, p, itype)
    with pytest.raises(rs.SparseInvalidPointerError) as e:
        rs.set_identity_permutation(h, 3, None, itype)
    assert (e.value.arg, e.value.index) == ("p", 3)
    if itype is I32:
        with pytest.raises(rs.SparseTypeMismatchError):
            rs.set_identity_permutation(h, 2**31, p, itype)


@settings(max_examples=examples(10), deadline=None, derandomize=True)
@given(nnz=st.integers(0, 20), base=st.sampled_from([0, 1]), seed=st.integers(0, 2**16))
def test_isctr_matches_numpy(nnz, base, seed):
    rng = np.random.default_rng(seed)
    n = 25
    ind = rng.choice(n, nnz, replace=False).astype(np.int32)
    vals = rng.integers(-100, 100, nnz).astype(np.int32)
    y = rng.integers(-5, 5, n).astype(np.int32)
    ref = y.copy()
    ref[ind] = vals
    dy = rm.to_device(y)
    h = rs.create_handle()
    rs.isctr(h, nnz, rm.to_device(vals) if nnz else None, rm.to_device(ind + base) if nnz else None,
             dy if nnz else None, base)
    assert np.array_equal(dy.get(), ref if nnz else y)


def test_isctr_checks():
    h = rs.create_handle()
    x, i, y = rm.zeros(3, np.int32), rm.zeros(3, np.int32), rm.zeros(3, np.int32)
    for k, (bad, exc, arg) in enumerate([(-1, rs.SparseInvalidSizeError, "nnz"),
                                         (None, rs.SparseInvalidPointerError, "x_val"),
                                         (None, rs.SparseInvalidPointerError, "x_ind"),
                                         (None, rs.SparseInvalidPointerError, "y"),
                                         (2, rs.SparseInvalidValueError, "idx_base")]):
        args = [3, x, i, y, 0]
        args[k] = bad
        with pytest.raises(exc) as e:
            rs.isctr(h, *args)
        assert (e.value.arg, e.value.index) == (arg, k + 2)
    with pytest.raises(rs.SparseInvalidHandleError):
        rs.isctr(None, 3, x, i, y, 0)


def test_get_git_rev_and_memstat_report(monkeypatch):
    h = rs.create_handle()
    assert rs.get_git_rev(h) == f"rocmath-{rm.__version__}"  # the build that runs
    with pytest.raises(rs.SparseInvalidHandleError):
        rs.get_git_rev(None)
    monkeypatch.delenv("ROCSPARSE_MEMSTAT", raising=False)
    rs.memstat_report(None)  # memstat off: nothing is checked
    monkeypatch.setenv("ROCSPARSE_MEMSTAT", "1")
    with pytest.raises(rs.SparseInvalidPointerError):
        rs.memstat_report(None)
    rs.memstat_report("report.json")
