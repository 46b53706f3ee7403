"""rocmath.sparse matrix checks: Xcheck_matrix_{csr,csc,coo,ell,gebsr,gebsc}, check_matrix_hyb and check_spmat.

Valid matrices of each format (from scipy.sparse) must check as ``success``; one injected defect of
each kind must give exactly rocSPARSE's data status; bad arguments raise rocSPARSE's statuses in its
order; the inputs are never touched.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sparse_level2 import random_csr

import rocmath as rm
import rocmath.sparse as rs
from rocmath.precision import SDCZ, D, Precision
from rocmath.testing import examples

DS = rs.DataStatus
GENERAL, SYMMETRIC, TRIANGULAR = rs.MatrixType.general, rs.MatrixType.symmetric, rs.MatrixType.triangular
LOWER, UPPER = rs.FillMode.lower, rs.FillMode.upper
SORTED, UNSORTED = rs.StorageMode.sorted, rs.StorageMode.unsorted

# A handle and a scratch buffer for the whole module, freed after it: device memory left live would stop
# later tests in the same worker from reconfiguring the devices.
_handle: rs.SparseHandle
P4: rm.DeviceArray  # a non-null temp_buffer
PTR: int  # a non-null stand-in for every array (rocsparse_int indices)


@pytest.fixture(autouse=True, scope="module")
def _module_resources():
    global _handle, P4, PTR
    _handle, P4 = rs.create_handle(), rm.zeros(1024, np.uint8)
    PTR = P4.ptr
    yield
    rs.destroy_handle(_handle)
    del _handle, P4  # the buffer is freed with its last reference


def _dev(host: np.ndarray):
    return rm.to_device(host) if host.size else None


def _fn(p: Precision, name: str):
    return getattr(rs, f"{p.letter}check_matrix_{name}")


def _run(bs_fn, fn, args: tuple, host: tuple[np.ndarray, ...]) -> DS:
    """buffer_size then the check, with the device copies of ``host`` in place of the Nones of ``args``;
    checks the out-parameters and that the device arrays are untouched."""
    devs = [_dev(a) for a in host]
    it = iter(devs)
    full = tuple(next(it) if a is None else a for a in args)
    out_size = np.zeros(1, np.uint64)
    size = bs_fn(_handle, *full, out_size)
    assert size == out_size[0] and size >= 0
    temp = rm.zeros(max(size, 1), np.uint8)
    out_status = np.full(1, -1, np.int64)
    status = fn(_handle, *full, out_status, temp)
    assert isinstance(status, DS) and out_status[0] == status
    for d, a in zip(devs, host, strict=True):
        if d is not None:
            assert d.get().tobytes() == a.tobytes()
    return status


# --- valid matrices and single defects -----------------------------------------------------------------


def _structured(rng, m: int, n: int, density: float, dtype, mtype, uplo) -> sp.csr_matrix:
    a = random_csr(rng, m, n, density, dtype)
    if mtype is not GENERAL:
        a = (sp.tril(a) if uplo is LOWER else sp.triu(a)).tocsr()
        a.sort_indices()
    return a


def _shuffle_rows(rng, ptr: np.ndarray, ind: np.ndarray, val: np.ndarray, block: int) -> None:
    """Unsorted storage: the entries (blocks) of each row in a random order, in place."""
    vals = val.reshape(-1, block) if block else val
    for i in range(ptr.size - 1):
        s, e = ptr[i] - ptr[0], ptr[i + 1] - ptr[0]
        order = s + rng.permutation(e - s)
        ind[s:e], vals[s:e] = ind[order].copy(), vals[order].copy()


def _rows_with(ptr: np.ndarray, at_least: int, rows: range) -> list[int]:
    return [i for i in rows if ptr[i + 1] - ptr[i] >= at_least]


def _bad_value(rng, val: np.ndarray, t: int, kind: str) -> None:
    bad = np.inf if kind == "inf" else np.nan
    if val.dtype.kind == "c" and rng.integers(2):
        val[t] = complex(val[t].real, bad)
    else:
        val[t] = bad if val.dtype.kind != "c" else complex(bad, val[t].imag)


def _inject_compressed(rng, kind: str, rows: int, cols: int, ptr, ind, val, block: int, base: int, mtype, uplo,
                       storage) -> DS | None:
    """One defect of ``kind`` into CSR-like arrays (``ptr`` over ``rows``, indices < ``cols``, ``block`` values per
    entry); returns the expected status, or None when the matrix has no room for it."""
    nnz = ind.size
    if kind == "index":
        if not nnz:
            return None
        ind[rng.integers(nnz)] = base + cols + rng.integers(3) if rng.integers(2) else base - 1 - rng.integers(3)
        return DS.invalid_index
    if kind in ("offset_negative", "offset_decreasing"):
        if rows < 2:
            return None
        k = int(rng.integers(1, rows))
        ptr[k] = -1 if kind == "offset_negative" else ptr[k + 1] + 1
        return DS.invalid_offset_ptr
    if kind in ("inf", "nan"):
        if not nnz:
            return None
        _bad_value(rng, val, int(rng.integers(nnz * block)), kind)
        return DS.inf if kind == "inf" else DS.nan
    if kind == "duplicate":
        cand = _rows_with(ptr, 2, range(rows))
        if not cand:
            return None
        s = ptr[cand[rng.integers(len(cand))]] - ptr[0]
        ind[s + 1] = ind[s]  # (unsorted storage: the duplicate shows in the row's sorted copy)
        return DS.duplicate_entry
    if kind == "fill":
        if mtype is GENERAL:
            return None
        cand = _rows_with(ptr, 1, range(rows - 1) if uplo is LOWER else range(1, rows))
        if not cand:
            return None
        i = cand[rng.integers(len(cand))]
        s, e = ptr[i] - ptr[0], ptr[i + 1] - ptr[0]
        t = (e - 1 if uplo is LOWER else s) if storage is SORTED else s + rng.integers(e - s)
        ind[t] = base + (cols - 1 if uplo is LOWER else 0)
        return DS.invalid_fill
    if kind == "unsorted":
        cand = _rows_with(ptr, 2, range(rows))
        if not cand:
            return None
        s = ptr[cand[rng.integers(len(cand))]] - ptr[0]
        ind[[s, s + 1]] = ind[[s + 1, s]]
        vals = val.reshape(-1, block)
        vals[[s, s + 1]] = vals[[s + 1, s]]
        return DS.invalid_sorting if storage is SORTED else DS.success
    raise AssertionError(kind)


KINDS = ["none", "index", "offset_negative", "offset_decreasing", "inf", "nan", "duplicate", "fill", "unsorted"]


@st.composite
def compressed_problems(draw):
    fmt = draw(st.sampled_from(["csr", "csc", "gebsr", "gebsc"]))
    mtype = draw(st.sampled_from([GENERAL, GENERAL, SYMMETRIC, TRIANGULAR]))
    m = draw(st.sampled_from([0, 1, 2, 5, 17, 40]))
    n = m if mtype is not GENERAL else draw(st.sampled_from([0, 1, 3, 16, 33]))
    rbd = draw(st.sampled_from([1, 2, 3])) if fmt.startswith("geb") else 1
    cbd = rbd if mtype is not GENERAL or not fmt.startswith("geb") else draw(st.sampled_from([1, 2]))
    return dict(fmt=fmt, mtype=mtype, uplo=draw(st.sampled_from([LOWER, UPPER])), m=m, n=n, rbd=rbd, cbd=cbd,
                density=draw(st.sampled_from([0.1, 0.4, 1.0])), p=draw(st.sampled_from(SDCZ)),
                base=draw(st.sampled_from([0, 1])), itype=draw(st.sampled_from([np.int32, np.int64])),
                storage=draw(st.sampled_from([SORTED, UNSORTED])), shift=draw(st.sampled_from([0, 0, 10000])),
                direction=draw(st.sampled_from([rs.Direction.row, rs.Direction.column])),
                kind=draw(st.sampled_from(KINDS)), seed=draw(st.integers(0, 2**16)))


@settings(max_examples=examples(200))
@given(compressed_problems())
def test_compressed_formats_valid_and_one_defect(q):
    """CSR, CSC, GEBSR and GEBSC (each a CSR structure of ``rows`` rows over ``cols``: CSC and GEBSC are checked
    as the CSR / GEBSR structure of their transpose, fill mode included)."""
    rng = np.random.default_rng(q["seed"])
    p, fmt, base, it = q["p"], q["fmt"], q["base"], q["itype"]
    rows, cols = q["m"], q["n"]  # the structure's rows: CSR rows, CSC columns, block rows / columns
    a = _structured(rng, rows, cols, q["density"], p.dtype, q["mtype"], q["uplo"])
    block = q["rbd"] * q["cbd"]
    ptr = (a.indptr + base + q["shift"]).astype(it)
    ind = (a.indices + base).astype(it)
    val = np.repeat(a.data, block).astype(p.dtype)
    if q["storage"] is UNSORTED:
        _shuffle_rows(rng, ptr, ind, val, block)
    expected = DS.success
    if q["kind"] != "none":
        expected = _inject_compressed(rng, q["kind"], rows, cols, ptr, ind, val, block, base, q["mtype"], q["uplo"],
                                      q["storage"])
        if expected is None:
            return
    attrs = (base, q["mtype"], q["uplo"], q["storage"])
    if fmt in ("csr", "csc"):
        m, n = (rows, cols) if fmt == "csr" else (cols, rows)
        args = (m, n, a.nnz, None, None, None, *attrs)
    else:
        mb, nb = (rows, cols) if fmt == "gebsr" else (cols, rows)
        args = (q["direction"], mb, nb, a.nnz, q["rbd"], q["cbd"], None, None, None, *attrs)
    got = _run(_fn(p, f"{fmt}_buffer_size"), _fn(p, fmt), args, (val, ptr, ind))
    assert got == expected, (q["kind"], got, expected)


def test_compressed_first_defect_in_storage_order():
    """Several defects: the first in storage order wins, each entry's tests in rocSPARSE's order."""
    m = n = 300
    a = random_csr(np.random.default_rng(1), m, n, 0.05, np.float64)
    ptr, ind, val = a.indptr.astype(np.int32), a.indices.astype(np.int32), a.data.copy()
    k = int(ptr[150])
    val[k] = np.nan  # row 150
    ind[ptr[250]] = n + 7  # row 250
    val[ptr[10]] = np.inf  # row 10: first
    args = (m, n, a.nnz, None, None, None, 0, GENERAL, LOWER, SORTED)
    assert _run(_fn(D, "csr_buffer_size"), _fn(D, "csr"), args, (val, ptr, ind)) == DS.inf
    # Within one entry: the index test before the value tests.
    val[ptr[5]], ind[ptr[5]] = np.nan, -1
    assert _run(_fn(D, "csr_buffer_size"), _fn(D, "csr"), args, (val, ptr, ind)) == DS.invalid_index
    # The row-pointer pass comes before every entry.
    ptr[299] = ptr[300] + 1
    assert _run(_fn(D, "csr_buffer_size"), _fn(D, "csr"), args, (val, ptr, ind)) == DS.invalid_offset_ptr


def test_inf_is_plus_infinity_only():
    """As rocSPARSE's device test, -inf is neither inf nor NaN."""
    ptr, ind = np.array([0, 2], np.int32), np.array([0, 1], np.int32)
    for value, expected in ((-np.inf, DS.success), (np.inf, DS.inf), (complex(1, np.inf), DS.inf),
                            (complex(np.nan, 0), DS.nan)):
        p = Precision.of(np.complex128 if isinstance(value, complex) else np.float64)
        val = np.array([1, value], p.dtype)
        got = _run(_fn(p, "csr_buffer_size"), _fn(p, "csr"), (1, 2, 2, None, None, None, 0, GENERAL, LOWER, SORTED),
                   (val, ptr, ind))
        assert got == expected, value


def test_csc_fill_mode_is_of_the_transposed_structure():
    """rocSPARSE's own CSC test: lower fill mode, a column's last row index set to m - 1 is invalid_fill."""
    a = sp.tril(random_csr(np.random.default_rng(3), 8, 8, 0.6, np.float64) + sp.eye(8)).tocsc()
    a.sort_indices()
    ptr, ind, val = a.indptr.astype(np.int32), a.indices.astype(np.int32), a.data.copy()
    args = (8, 8, a.nnz, None, None, None, 0, TRIANGULAR, UPPER, SORTED)
    # A lower-triangular matrix is, in CSC, the CSR structure of an upper one.
    assert _run(_fn(D, "csc_buffer_size"), _fn(D, "csc"), args, (val, ptr, ind)) == DS.success
    args = (8, 8, a.nnz, None, None, None, 0, TRIANGULAR, LOWER, SORTED)
    assert _run(_fn(D, "csc_buffer_size"), _fn(D, "csc"), args, (val, ptr, ind)) == DS.invalid_fill


# --- COO, ELL, HYB --------------------------------------------------------------------------------------


@st.composite
def simple_problems(draw):
    mtype = draw(st.sampled_from([GENERAL, GENERAL, SYMMETRIC, TRIANGULAR]))
    m = draw(st.sampled_from([0, 1, 2, 9, 30]))
    n = m if mtype is not GENERAL else draw(st.sampled_from([0, 1, 4, 21]))
    return dict(mtype=mtype, uplo=draw(st.sampled_from([LOWER, UPPER])), m=m, n=n,
                density=draw(st.sampled_from([0.1, 0.5, 1.0])), p=draw(st.sampled_from(SDCZ)),
                base=draw(st.sampled_from([0, 1])), itype=draw(st.sampled_from([np.int32, np.int64])),
                storage=draw(st.sampled_from([SORTED, UNSORTED])), extra=draw(st.sampled_from([0, 2])),
                kind=draw(st.sampled_from(["none", "index", "inf", "nan", "fill", "unsorted", "duplicate",
                                           "padding"])),
                seed=draw(st.integers(0, 2**16)))


@settings(max_examples=examples(100))
@given(simple_problems())
def test_coo_valid_and_one_defect(q):
    rng = np.random.default_rng(q["seed"])
    p, base, it, m, n = q["p"], q["base"], q["itype"], q["m"], q["n"]
    a = _structured(rng, m, n, q["density"], p.dtype, q["mtype"], q["uplo"]).tocoo()
    row, col, val = (a.row + base).astype(it), (a.col + base).astype(it), a.data.copy()
    if q["storage"] is UNSORTED:
        order = rng.permutation(a.nnz)
        row, col, val = row[order], col[order], val[order]
    kind, nnz, expected = q["kind"], a.nnz, DS.success
    same_row = [k for k in range(nnz - 1) if row[k] == row[k + 1]]
    if kind in ("index", "inf", "nan") and nnz:
        k = rng.integers(nnz)
        if kind == "index":
            target, limit = (row, m) if rng.integers(2) else (col, n)
            target[k] = base + (limit if rng.integers(2) else -1)
            expected = DS.invalid_index
        else:
            _bad_value(rng, val, k, kind)
            expected = DS.inf if kind == "inf" else DS.nan
    elif kind == "fill" and q["mtype"] is not GENERAL and nnz:
        # Lower: the last entry of a row above the last moves to column n - 1; upper: the first entry of a row
        # below the first to column 0 (so that, with sorted storage, no neighbour is out of order before it).
        lower = q["uplo"] is LOWER
        last = np.r_[row[1:] != row[:-1], True] if q["storage"] is SORTED else np.ones(nnz, bool)
        first = np.r_[True, row[1:] != row[:-1]] if q["storage"] is SORTED else np.ones(nnz, bool)
        cand = np.flatnonzero((last & (row - base < m - 1)) if lower else (first & (row - base > 0)))
        if cand.size:
            col[cand[rng.integers(cand.size)]] = base + (n - 1 if lower else 0)
            expected = DS.invalid_fill
    elif kind == "unsorted" and same_row and q["storage"] is SORTED:
        k = same_row[rng.integers(len(same_row))]
        col[[k, k + 1]] = col[[k + 1, k]]
        expected = DS.invalid_sorting
    elif kind == "duplicate" and same_row:
        k = same_row[rng.integers(len(same_row))]
        col[k + 1] = col[k]  # COO has no duplicate test, and an equal column is not out of order
    args = (m, n, nnz, None, None, None, base, q["mtype"], q["uplo"], q["storage"])
    assert _run(_fn(p, "coo_buffer_size"), _fn(p, "coo"), args, (val, row, col)) == expected


def _ell_arrays(a: sp.csr_matrix, width: int, base: int, it, dtype) -> tuple[np.ndarray, np.ndarray]:
    m = a.shape[0]
    col = np.full((width, m), -1, it)
    val = np.zeros((width, m), dtype)
    for i in range(m):
        s, e = a.indptr[i], a.indptr[i + 1]
        col[: e - s, i] = a.indices[s:e] + base
        val[: e - s, i] = a.data[s:e]
    return val.ravel(), col.ravel()


@settings(max_examples=examples(100))
@given(simple_problems())
def test_ell_valid_and_one_defect(q):
    rng = np.random.default_rng(q["seed"])
    p, base, it, m, n = q["p"], q["base"], q["itype"], q["m"], q["n"]
    a = _structured(rng, m, n, q["density"], p.dtype, GENERAL, LOWER)
    lengths = np.diff(a.indptr)
    width = int(lengths.max(initial=0)) + q["extra"]
    val, col = _ell_arrays(a, width, base, it, p.dtype)
    kind, expected = q["kind"], DS.success
    filled = [(j, i) for i in range(m) for j in range(lengths[i])]
    padding = [(j, i) for i in range(m) for j in range(lengths[i], width)]
    if kind in ("index", "inf", "nan") and filled:
        j, i = filled[rng.integers(len(filled))]
        if kind == "index":
            col[j * m + i] = base + n + rng.integers(3)
            expected = DS.invalid_index
        else:
            _bad_value(rng, val, j * m + i, kind)
            expected = DS.inf if kind == "inf" else DS.nan
    elif kind in ("unsorted", "duplicate"):
        rows2 = [i for i in range(m) if lengths[i] >= 2]
        if rows2:
            i = rows2[rng.integers(len(rows2))]
            if kind == "unsorted":
                col[[i, m + i]] = col[[m + i, i]]
            else:
                col[m + i] = col[i]
            expected = DS.invalid_sorting if q["storage"] is SORTED else DS.success
    elif kind == "padding" and padding:  # after a -1 nothing is read
        j, i = padding[rng.integers(len(padding))]
        val[j * m + i] = np.nan
    args = (m, n, width, None, None, base, GENERAL, q["uplo"], q["storage"])
    assert _run(_fn(p, "ell_buffer_size"), _fn(p, "ell"), args, (val, col)) == expected


@settings(max_examples=examples(40))
@given(simple_problems(), st.sampled_from([0, 1, 2]))
def test_hyb_valid_and_one_defect(q, user_width):
    rng = np.random.default_rng(q["seed"])
    p, base, it, m, n = q["p"], q["base"], q["itype"], q["m"], q["n"]
    a = _structured(rng, m, n, q["density"], p.dtype, GENERAL, LOWER)
    d = rs.create_mat_descr()
    rs.set_mat_index_base(d, base)
    hyb = rs.create_hyb_mat()
    user_width = min(user_width, 2 * (a.nnz - 1) // max(m, 1) + 1 if a.nnz else 0)  # csr2hyb's limit
    nonempty = lambda x: rm.to_device(x) if x.size else rm.zeros(1, x.dtype)  # noqa: E731
    getattr(rs, f"{p.letter}csr2hyb")(_handle, m, n, d, nonempty(a.data), rm.to_device((a.indptr + base).astype(it)),
                                      nonempty((a.indices + base).astype(it)), hyb, user_width, rs.HybPartition.user)
    expected = DS.success
    part = "ell" if rng.integers(2) else "coo"
    if part == "coo" and not hyb.coo_nnz:
        part = "ell"
    if q["kind"] in ("inf", "nan", "index"):
        if part == "ell":
            cols = hyb.ell_col_ind.get() if hyb.ell_nnz else np.zeros(0)
            slots = np.flatnonzero(cols != -1)
            if slots.size:
                t = slots[rng.integers(slots.size)]
                if q["kind"] == "index":
                    cols[t] = base + n
                    hyb.ell_col_ind.set(cols)
                else:
                    v = hyb.ell_val.get()
                    _bad_value(rng, v, t, q["kind"])
                    hyb.ell_val.set(v)
                expected = DS.invalid_index if q["kind"] == "index" else DS[q["kind"]]
        elif hyb.coo_nnz:
            t = rng.integers(hyb.coo_nnz)
            if q["kind"] == "index":
                r = hyb.coo_row_ind.get()
                r[t] = base + m
                hyb.coo_row_ind.set(r)
            else:
                v = hyb.coo_val.get()
                _bad_value(rng, v, t, q["kind"])
                hyb.coo_val.set(v)
            expected = DS.invalid_index if q["kind"] == "index" else DS[q["kind"]]
    attrs = (base, GENERAL, q["uplo"], q["storage"])
    size = rs.check_matrix_hyb_buffer_size(_handle, hyb, *attrs, None)
    temp = rm.zeros(max(size, 1), np.uint8)
    assert rs.check_matrix_hyb(_handle, hyb, *attrs, None, temp) == expected
    with pytest.raises(rs.SparseInvalidValueError) as e:  # the ELL part must be general
        rs.check_matrix_hyb(_handle, hyb, base, SYMMETRIC, q["uplo"], q["storage"], None, temp)
    assert (e.value.arg, e.value.index) == ("matrix_type", 4)


# --- check_spmat ------------------------------------------------------------------------------------------

_PAIRS = [(np.int32, np.int32), (np.int64, np.int32), (np.int64, np.int64)]


@settings(max_examples=examples(80))
@given(st.sampled_from(["csr", "csc", "coo", "ell", "bsr"]), st.sampled_from(SDCZ), st.sampled_from(_PAIRS),
       st.sampled_from([0, 1]), st.sampled_from(["none", "nan", "index", "fill"]), st.integers(0, 2**16))
def test_check_spmat_dispatches_to_the_format(fmt, p, pair, base, kind, seed):
    rng = np.random.default_rng(seed)
    it, jt = pair if fmt in ("csr", "csc", "bsr") else (pair[1], pair[1])
    m = n = 12
    mtype = TRIANGULAR if kind == "fill" and fmt != "ell" else GENERAL
    a = _structured(rng, m, n, 0.3, p.dtype, mtype, LOWER)
    a = a + sp.eye(m, dtype=p.dtype, format="csr")  # every row has its diagonal
    a = (sp.tril(a) if mtype is TRIANGULAR else a).tocsr()
    a.sort_indices()
    dt = rs.Datatype.of(p.dtype)
    # CSC: a's CSR arrays as CSC arrays (of a.T), checked as the lower CSR structure they are.
    val, ptr, ind = a.data.copy(), (a.indptr + base).astype(it), (a.indices + base).astype(jt)
    expected = DS.success
    t = int(rng.integers(a.nnz))
    row_of = np.repeat(np.arange(m), np.diff(a.indptr))
    if kind == "nan":
        val[t], expected = np.nan, DS.nan
    elif kind == "index":
        ind[t], expected = base + n + 1, DS.invalid_index
    elif kind == "fill" and fmt != "ell":
        r = int(rng.integers(m - 1))
        t = int(a.indptr[r + 1] - 1)  # the diagonal entry: moved above it
        ind[t], expected = base + n - 1, DS.invalid_fill
    if fmt in ("csr", "csc"):
        create = rs.create_csr_descr if fmt == "csr" else rs.create_csc_descr
        arrays = (rm.to_device(val), rm.to_device(ptr), rm.to_device(ind))
        A = create(m, n, a.nnz, arrays[1], arrays[2], arrays[0], rs.IndexType.of(it), rs.IndexType.of(jt), base, dt)
    elif fmt == "coo":
        arrays = (rm.to_device(val), rm.to_device((row_of + base).astype(jt)), rm.to_device(ind))
        A = rs.create_coo_descr(m, n, a.nnz, arrays[1], arrays[2], arrays[0], rs.IndexType.of(jt), base, dt)
    elif fmt == "ell":
        width = int(np.diff(a.indptr).max())
        ev, ec = _ell_arrays(sp.csr_matrix((val, ind - base, a.indptr), shape=a.shape), width, base, jt, p.dtype)
        arrays = (rm.to_device(ev), rm.to_device(ec))
        A = rs.create_ell_descr(m, n, arrays[1], arrays[0], width, rs.IndexType.of(jt), base, dt)
    else:  # 1x1 blocks
        arrays = (rm.to_device(val), rm.to_device(ptr), rm.to_device(ind))
        A = rs.create_bsr_descr(m, n, a.nnz, rs.Direction.row, 1, arrays[1], arrays[2], arrays[0],
                                rs.IndexType.of(it), rs.IndexType.of(jt), base, dt)
    if mtype is TRIANGULAR:
        rs.spmat_set_attribute(A, rs.SpMatAttribute.matrix_type, TRIANGULAR)
    out = np.zeros(1, np.int64)
    size = rs.check_spmat(_handle, A, None, rs.CheckSpmatStage.buffer_size, out)
    assert size == out[0] >= 256
    ds = np.full(1, -1, np.int32)
    got = rs.check_spmat(_handle, A, ds, rs.CheckSpmatStage.compute, None, rm.zeros(size, np.uint8))
    assert got == expected == ds[0], (fmt, kind)


def test_check_spmat_arguments():
    h = _handle
    A = rs.create_csr_descr(3, 3, 0, rm.zeros(4, np.int32), None, None, 2, 2, 0, rs.Datatype.f64_r)
    temp = rm.zeros(256, np.uint8)
    cases = [
        (lambda: rs.check_spmat(None, A, None, 1, None, temp), rs.SparseInvalidHandleError, None),
        (lambda: rs.check_spmat(h, None, None, 1, None, temp), rs.SparseInvalidPointerError, ("mat", 2)),
        (lambda: rs.check_spmat(h, A, None, 7, None, temp), rs.SparseInvalidValueError, ("stage", 4)),
        (lambda: rs.check_spmat(h, A, None, 1, None, None), rs.SparseInvalidPointerError, ("buffer_size", 5)),
    ]
    for call, exc, where in cases:
        with pytest.raises(exc) as e:
            call()
        if where:
            assert (e.value.arg, e.value.index) == where
    assert rs.check_spmat(h, A, None, 1, None, temp) == DS.success
    B = rs.create_csr_descr(3, 3, 0, rm.zeros(4, np.int32), None, None, 2, 3, 0, rs.Datatype.f64_r)
    with pytest.raises(rs.SparseNotImplementedError) as e:  # a 32-bit pointer with 64-bit columns
        rs.check_spmat(h, B, None, 1, None, temp)
    assert e.value.arg == "mat"
    I8 = rs.create_csr_descr(3, 3, 0, rm.zeros(4, np.int32), None, None, 2, 2, 0, rs.Datatype.i8_r)
    with pytest.raises(rs.SparseNotImplementedError):
        rs.check_spmat(h, I8, None, 1, None, temp)
    T = rs.create_csr_descr(3, 4, 0, rm.zeros(4, np.int32), None, None, 2, 2, 0, rs.Datatype.f64_r)
    rs.spmat_set_attribute(T, rs.SpMatAttribute.matrix_type, SYMMETRIC)
    with pytest.raises(rs.SparseInvalidSizeError) as e:  # the legacy check's square rule, naming mat
        rs.check_spmat(h, T, None, 1, None, temp)
    assert (e.value.arg, e.value.index) == ("mat", 2)
    bad = rs.create_csr_descr(3, 3, 2, rm.to_device(np.array([0, 1, 1, 1], np.int32)), rm.zeros(2, np.int32),
                              rm.zeros(2), 2, 2, 0, rs.Datatype.f64_r)
    with pytest.raises(rs.SparseInvalidValueError) as e:  # nnz against row_ptr[m] - row_ptr[0]
        rs.check_spmat(h, bad, None, 1, None, temp)
    assert e.value.arg == "mat"
    with pytest.raises(rs.SparseInvalidPointerError) as e:
        rs.check_spmat(h, rs.create_coo_descr(3, 3, 1, rm.zeros(1, np.int32), rm.zeros(1, np.int32), rm.zeros(1),
                                              2, 0, rs.Datatype.f64_r), None, 1, np.zeros(1, np.int64), None)
    assert (e.value.arg, e.value.index) == ("temp_buffer", 6)


# --- argument checks of the legacy routines -------------------------------------------------------------


def _assert_order(fn, good: dict, bad: list[tuple[str, object, type]]):
    """With the bad values ``bad[i:]`` applied, the call raises ``bad[i]``'s exception naming its argument
    and 1-based position: the checks run in the order of ``bad``."""
    names = list(good)
    for i, (name, _, exc) in enumerate(bad):
        args = dict(good)
        for n2, v, _ in bad[i:]:
            args[n2] = v
        with pytest.raises(exc) as e:
            fn(_handle, *args.values())
        assert (e.value.arg, e.value.index) == (name, names.index(name) + 2), (fn.__name__, name, e.value)




def _legacy(kind: str, check: bool) -> tuple[dict, list]:
    attrs = dict(idx_base=0, matrix_type=GENERAL, uplo=LOWER, storage=SORTED)
    enum_bad = [("idx_base", 2, rs.SparseInvalidValueError), ("matrix_type", 9, rs.SparseInvalidValueError),
                ("uplo", 5, rs.SparseInvalidValueError), ("storage", 3, rs.SparseInvalidValueError)]
    tail = dict(data_status=None, temp_buffer=P4) if check else dict(buffer_size=None)
    temp_bad = [("temp_buffer", None, rs.SparseInvalidPointerError)] if check else []
    sizes = {"csr": ("m", "n", "nnz"), "csc": ("m", "n", "nnz"), "coo": ("m", "n", "nnz"),
             "ell": ("m", "n", "ell_width")}
    arrays = {"csr": ("csr_val", "csr_row_ptr", "csr_col_ind"), "csc": ("csc_val", "csc_col_ptr", "csc_row_ind"),
              "coo": ("coo_val", "coo_row_ind", "coo_col_ind"), "ell": ("ell_val", "ell_col_ind")}
    if kind in sizes:
        good = {s: 4 for s in sizes[kind]} | {a: PTR for a in arrays[kind]} | attrs | tail
        bad = [(s, -1, rs.SparseInvalidSizeError) for s in sizes[kind]]
        bad += [(a, None, rs.SparseInvalidPointerError) for a in arrays[kind]]
        return good, bad + enum_bad + temp_bad
    letter = "c" if kind == "gebsc" else "r"
    arrs = (f"bs{letter}_val", f"bs{letter}_{'col_ptr' if letter == 'c' else 'row_ptr'}",
            f"bs{letter}_{'row_ind' if letter == 'c' else 'col_ind'}")
    good = dict(dir=0, mb=4, nb=4, nnzb=4, row_block_dim=2, col_block_dim=2) | {a: PTR for a in arrs} | attrs | tail
    bad = [("dir", 7, rs.SparseInvalidValueError)] + [(s, -1, rs.SparseInvalidSizeError) for s in ("mb", "nb", "nnzb")]
    bad += [("row_block_dim", 0, rs.SparseInvalidSizeError), ("col_block_dim", 0, rs.SparseInvalidSizeError)]
    bad += [(a, None, rs.SparseInvalidPointerError) for a in arrs]
    return good, bad + enum_bad + temp_bad


@pytest.mark.parametrize("kind", ["csr", "csc", "coo", "ell", "gebsr", "gebsc"])
@pytest.mark.parametrize("check", [False, True])
def test_legacy_argument_order(kind, check):
    good, bad = _legacy(kind, check)
    fn = _fn(D, kind if check else f"{kind}_buffer_size")
    _assert_order(fn, good, bad)
    with pytest.raises(rs.SparseInvalidHandleError):
        fn(None, *good.values())
    if kind == "ell":  # ELL: general only, right after the matrix type's value check
        with pytest.raises(rs.SparseInvalidValueError) as e:
            fn(_handle, *(good | dict(matrix_type=SYMMETRIC, uplo=9)).values())
        assert e.value.arg == "matrix_type"
    elif kind in ("gebsr", "gebsc"):  # square blocks and mb == nb, after every other check
        for over in (dict(nb=5), dict(col_block_dim=3)):
            with pytest.raises(rs.SparseInvalidSizeError) as e:
                fn(_handle, *(good | dict(matrix_type=SYMMETRIC) | over).values())
            assert e.value.arg == "matrix_type"
    else:  # square, after every other check, naming n
        with pytest.raises(rs.SparseInvalidSizeError) as e:
            fn(_handle, *(good | dict(matrix_type=TRIANGULAR, n=5)).values())
        assert (e.value.arg, e.value.index) == ("n", 3)


def test_quick_returns_and_buffer_sizes():
    h = _handle
    # COO without entries: no temp_buffer needed; ELL without slots: none needed but still checked.
    assert rs.dcheck_matrix_coo_buffer_size(h, 3, 3, 0, None, None, None, 0, 0, 0, 0, None) == 0
    assert rs.dcheck_matrix_coo(h, 3, 3, 0, None, None, None, 0, 0, 0, 0, None, None) == DS.success
    assert rs.dcheck_matrix_ell_buffer_size(h, 3, 3, 0, None, None, 0, 0, 0, 0, None) == 0
    with pytest.raises(rs.SparseInvalidPointerError) as e:
        rs.dcheck_matrix_ell(h, 3, 3, 0, None, None, 0, 0, 0, 0, None, None)
    assert e.value.arg == "temp_buffer"
    assert rs.dcheck_matrix_ell(h, 3, 3, 0, None, None, 0, 0, 0, 0, None, P4) == DS.success
    # CSR without rows: valid when nnz is 0.
    assert rs.dcheck_matrix_csr(h, 0, 3, 0, None, None, None, 0, 0, 0, 0, None, P4) == DS.success
    assert rs.dcheck_matrix_csr_buffer_size(h, 5, 5, 9, PTR, PTR, PTR, 0, 0, 0, SORTED, None) == 256
    assert rs.dcheck_matrix_csr_buffer_size(h, 5, 5, 9, PTR, PTR, PTR, 0, 0, 0, UNSORTED, None) == 512


@pytest.mark.parametrize("kind", ["csr", "gebsr"])
def test_nnz_must_match_the_row_pointer(kind):
    ptr = rm.to_device(np.array([5, 6, 8], np.int32))  # spans 3 from a shifted start
    ind = rm.to_device(np.array([0, 0, 1], np.int32))
    val = rm.zeros(12)
    for nnz, ok in ((3, True), (2, False), (4, False)):
        if kind == "csr":
            call = lambda z: rs.dcheck_matrix_csr(_handle, 2, 2, z, val, ptr, ind, 0, 0, 0, 0, None, P4)  # noqa: E731
        else:
            call = lambda z: rs.dcheck_matrix_gebsr(_handle, 0, 2, 2, z, 2, 2, val, ptr, ind, 0, 0, 0, 0,  # noqa: E731
                                                    None, P4)
        if ok:
            assert call(nnz) == DS.success
        else:
            with pytest.raises(rs.SparseInvalidValueError) as e:
                call(nnz)
            assert e.value.arg == ("nnz" if kind == "csr" else "nnzb")


def test_enum_values():
    assert [int(s) for s in DS] == list(range(8))
    assert (DS.invalid_offset_ptr, DS.invalid_fill) == (3, 7)
    assert (rs.CheckSpmatStage.buffer_size, rs.CheckSpmatStage.compute) == (0, 1)
