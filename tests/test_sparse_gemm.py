"""rocmath.sparse csrgemm (buffer_size -> nnz -> compute) and csrgeam (nnz -> compute), against scipy.sparse."""

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
from rocmath.precision import SDCZ, D, Precision
from rocmath.testing import assert_close, examples, scale_of


def _dev(a: sp.csr_matrix, base: int, it) -> tuple[rm.DeviceArray, rm.DeviceArray, rm.DeviceArray]:
    return (rm.to_device(a.data), rm.to_device((a.indptr + base).astype(it)),
            rm.to_device((a.indices + base).astype(it)))


def _descr(base: int) -> rs.MatDescr:
    d = rs.create_mat_descr()
    rs.set_mat_index_base(d, base)
    return d


def _fn(p: Precision, name: str):
    return getattr(rs, f"{p.letter}{name}")


@st.composite
def gemm_problems(draw):
    return dict(m=draw(st.sampled_from([0, 1, 5, 17])), n=draw(st.sampled_from([0, 1, 4, 23])),
                k=draw(st.sampled_from([0, 1, 9, 30])), density=draw(st.sampled_from([0.0, 0.1, 0.4, 1.0])),
                p=draw(st.sampled_from(SDCZ)), bases=draw(st.tuples(*[st.sampled_from([0, 1])] * 4)),
                itype=draw(st.sampled_from([np.int32, np.int64])),
                alpha=draw(st.sampled_from([None, 1.0, -0.5 + 2j])), beta=draw(st.sampled_from([None, 0.0, 1.5j - 1])),
                device_mode=draw(st.booleans()), seed=draw(st.integers(0, 2**16)))


def _scalar_arg(p: Precision, value, device_mode: bool, keep: list):
    if value is None:
        return None
    v = scalar(p, value)
    if device_mode:
        d = rm.to_device(np.array([v], p.dtype))
        keep.append(d)
        return d
    return v


@settings(max_examples=examples(60))
@given(gemm_problems())
def test_csrgemm_matches_scipy(q):
    p, m, n, kd = q["p"], q["m"], q["n"], q["k"]
    if q["alpha"] is None and q["beta"] is None:
        q["beta"] = 1.0
    rng = np.random.default_rng(q["seed"])
    a, b, d = (random_csr(rng, m, kd, q["density"], p.dtype), random_csr(rng, kd, n, q["density"], p.dtype),
               random_csr(rng, m, n, q["density"] / 2, p.dtype))
    ba, bb, bd, bc = q["bases"]
    it = q["itype"]
    (av, ap, ai), (bv, bp, bi), (dv, dp, di) = _dev(a, ba, it), _dev(b, bb, it), _dev(d, bd, it)
    da, db, dd, dc = _descr(ba), _descr(bb), _descr(bd), _descr(bc)
    h = rs.create_handle()
    rs.set_pointer_mode(h, rs.PointerMode.device if q["device_mode"] else rs.PointerMode.host)
    keep: list = []
    alpha = _scalar_arg(p, q["alpha"], q["device_mode"], keep)
    beta = _scalar_arg(p, q["beta"], q["device_mode"], keep)
    info = rs.create_mat_info()
    size = _fn(p, "csrgemm_buffer_size")(h, "N", "N", m, n, kd, alpha, da, a.nnz, ap, ai, db, b.nnz, bp, bi, beta,
                                         dd, d.nnz, dp, di, info)
    tmp = rm.empty(max(1, size), np.uint8)
    cp_full, cp = padded(np.zeros(m + 1, it))
    nnz_out = rm.to_device(np.full(1, -1, it))
    got_nnz = rs.csrgemm_nnz(h, "N", "N", m, n, kd, da, a.nnz, ap, ai, db, b.nnz, bp, bi, dd, d.nnz, dp, di, dc, cp,
                             nnz_out if q["device_mode"] else None, info, tmp)
    if q["device_mode"]:
        assert got_nnz is None
        got_nnz = int(nnz_out.get()[0])
    expected = sp.csr_matrix((m, n), dtype=p.dtype)
    if q["alpha"] is not None:
        expected = expected + scalar(p, q["alpha"]) * (a @ b)
    if q["beta"] is not None:
        expected = expected + scalar(p, q["beta"]) * d
    # The structure is the union of A B's and D's (explicit zeros from cancellation stay, as in rocSPARSE).
    struct = sp.csr_matrix((m, n), dtype=np.float64)
    if q["alpha"] is not None and kd:
        struct = struct + abs(a).astype(bool).astype(float) @ abs(b).astype(bool).astype(float)
    if q["beta"] is not None:
        struct = struct + abs(d).astype(bool).astype(float)
    struct = sp.csr_matrix(struct)
    struct.eliminate_zeros()
    struct.sort_indices()
    assert got_nnz == struct.nnz
    if m:
        assert np.array_equal(cp.get() - bc, struct.indptr)
    cv_full, cv = padded(np.zeros(got_nnz, p.dtype))
    ci_full, ci = padded(np.zeros(got_nnz, it))
    _fn(p, "csrgemm")(h, "N", "N", m, n, kd, alpha, da, a.nnz, av, ap, ai, db, b.nnz, bv, bp, bi, beta, dd, d.nnz, dv,
                      dp, di, dc, cv, cp, ci, info, tmp)
    got = sp.csr_matrix((cv.get(), ci.get() - bc, cp.get() - bc), shape=(m, n))
    assert got.has_sorted_indices
    assert np.array_equal(got.indices, struct.indices)
    scale = product_scale(p, scalar(p, q["alpha"]), a, b, scalar(p, q["beta"]), d)
    assert_close(got.toarray(), np.asarray(expected.toarray(), p.dtype), p, "reduction", max(1, kd), scale=scale)
    for full, dev in ((cp_full, cp), (cv_full, cv), (ci_full, ci)):
        margins_untouched(full, dev.size)


def _gemm_args(m=4, n=4, kd=4, alpha=1.0, beta=None):
    a = sp.identity(4, format="csr")
    v, pt, ix = _dev(a, 0, np.int32)
    return dict(trans_A="N", trans_B="N", m=m, n=n, k=kd, alpha=alpha, descr_A=rs.create_mat_descr(), nnz_A=4,
                csr_row_ptr_A=pt, csr_col_ind_A=ix, descr_B=rs.create_mat_descr(), nnz_B=4, csr_row_ptr_B=pt,
                csr_col_ind_B=ix, beta=beta, descr_D=rs.create_mat_descr(), nnz_D=4, csr_row_ptr_D=pt,
                csr_col_ind_D=ix, info_C=rs.create_mat_info()), v


@pytest.mark.parametrize("change, status, arg", [
    (dict(trans_A="T"), rs.Status.not_implemented, "trans_A"),
    (dict(trans_B=7), rs.Status.invalid_value, "trans_B"),
    (dict(m=-1), rs.Status.invalid_size, "m"),
    (dict(k=-2), rs.Status.invalid_size, "k"),
    (dict(alpha=None, beta=None), rs.Status.invalid_pointer, "alpha"),
    (dict(descr_A=None), rs.Status.invalid_pointer, "descr_A"),
    (dict(csr_row_ptr_B=None), rs.Status.invalid_pointer, "csr_row_ptr_B"),
    (dict(csr_col_ind_A=None), rs.Status.invalid_pointer, "csr_col_ind_A"),
    (dict(info_C=None), rs.Status.invalid_pointer, "info_C"),
])
def test_csrgemm_buffer_size_statuses(change, status, arg):
    args, _ = _gemm_args()
    args.update(change)
    with pytest.raises(rs.SparseError) as exc:
        rs.dcsrgemm_buffer_size(rs.create_handle(), **args)
    assert exc.value.status is status and exc.value.arg == arg


def test_csrgemm_general_only_and_nnz_needs_buffer_size():
    args, _ = _gemm_args()
    d = rs.create_mat_descr()
    rs.set_mat_type(d, rs.MatrixType.symmetric)
    with pytest.raises(rs.SparseNotImplementedError) as exc:
        rs.dcsrgemm_buffer_size(rs.create_handle(), **{**args, "descr_B": d})
    assert exc.value.arg == "descr_B"
    # A fresh info: rocSPARSE records the case in info_C before buffer_size's checks, so the failed call above
    # leaves it usable by csrgemm_nnz.
    nnz_args = {k: v for k, v in args.items() if k not in ("alpha", "beta")} | {"info_C": rs.create_mat_info()}
    with pytest.raises(rs.SparseInvalidPointerError) as exc:
        rs.csrgemm_nnz(rs.create_handle(), **nnz_args, descr_C=rs.create_mat_descr(),
                       csr_row_ptr_C=rm.empty(5, np.int32), nnz_C=None, temp_buffer=None)
    assert exc.value.arg == "info_C"


def _square(a: sp.csr_matrix, base: int = 0, alpha: float = 1.0, runs: int = 1) -> list[tuple[Any, Any, Any]]:
    """``C := alpha A A`` (double) through csrgemm's three stages, the compute stage ``runs`` times:
    each run's (row pointer, columns, values), on the host and 0-based."""
    n = a.shape[0]
    v, pt, ix = _dev(a, base, np.int32)
    h, info, ds = rs.create_handle(), rs.create_mat_info(), _descr(base)
    size = rs.dcsrgemm_buffer_size(h, "N", "N", n, n, n, alpha, ds, a.nnz, pt, ix, ds, a.nnz, pt, ix, None, ds, 0,
                                   None, None, info)
    tmp = rm.empty(max(1, size), np.uint8)
    cp = rm.empty(n + 1, np.int32)
    nnz = rs.csrgemm_nnz(h, "N", "N", n, n, n, ds, a.nnz, pt, ix, ds, a.nnz, pt, ix, ds, 0, None, None, ds, cp, None,
                         info, tmp)
    out = []
    for _ in range(runs):
        cv, ci = rm.empty(nnz), rm.empty(nnz, np.int32)
        rs.dcsrgemm(h, "N", "N", n, n, n, alpha, ds, a.nnz, v, pt, ix, ds, a.nnz, v, pt, ix, None, ds, 0, None, None,
                    None, ds, cv, cp, ci, info, tmp)
        out.append((cp.get() - base, ci.get() - base, cv.get()))
    return out


def test_csrgemm_is_deterministic_on_a_power_law_graph():
    from rocmath.sparse.bench_cases import power_law_graph

    a = power_law_graph(3000, 8)
    runs = _square(a, runs=2)
    ref = a @ a
    ref.sort_indices()
    assert np.array_equal(runs[0][2], runs[1][2]) and np.array_equal(runs[0][1], ref.indices)
    assert_close(runs[0][2], ref.data, D, "reduction", 64)


@pytest.mark.parametrize("seed", [0, 1])
def test_csrgemm_rows_of_every_ordering_path_match_scipy_exactly(seed):
    # C's rows come out sorted three ways: compared (fewer than RADIX_MIN columns), radix-sorted, or read
    # off the column markers (n / SCAN_RATIO columns or more).  A product with all three kinds of rows
    # (hub rows of B for the last, mid-sized ones for the second), integer-valued so every sum is exact.
    from rocmath.sparse._kernels_extra import RADIX_MIN, SCAN_RATIO

    rng = np.random.default_rng(seed)
    n = 8 * SCAN_RATIO * RADIX_MIN
    ints = lambda k: rng.integers(-3, 4, k)  # noqa: E731
    a = sp.random(n, n, density=3 / n, random_state=rng, format="csr", data_rvs=ints)
    hub = sp.csr_matrix((rng.integers(1, 4, n), (np.arange(n) % 7, rng.permutation(n))), shape=(n, n))
    mid_rows = np.repeat(np.arange(7, 100), 2 * RADIX_MIN)
    mid = sp.csr_matrix((ints(mid_rows.size), (mid_rows, rng.integers(0, n, mid_rows.size))), shape=(n, n))
    a = (a + hub + mid).tocsr()
    a.sum_duplicates()
    lengths = np.diff((a @ a).tocsr().indptr)
    assert (lengths * SCAN_RATIO >= n).any() and ((lengths > 0) & (lengths < RADIX_MIN)).any()
    assert ((lengths >= RADIX_MIN) & (lengths * SCAN_RATIO < n)).any()
    [(ptr, cols, vals)] = _square(a, base=1, alpha=2.0)
    # The structure is the boolean product's (sums that cancel stay as explicit zeros, as in rocSPARSE).
    pattern = (abs(a).astype(bool).astype(float) @ abs(a).astype(bool).astype(float)).tocsr()
    pattern.sort_indices()
    assert np.array_equal(ptr, pattern.indptr) and np.array_equal(cols, pattern.indices)
    got = sp.csr_matrix((vals, cols, ptr), shape=(n, n))
    assert (got - 2.0 * (a @ a)).count_nonzero() == 0


@pytest.mark.parametrize("n", [1, 2, 2047, 2048, 2049, 1 << 22, (1 << 22) + 1, 1 << 40])
def test_radix_sort_sorts_distinct_keys_in_one_two_or_more_passes(n):
    from rocmath.sparse._kernels_extra import RADIX_BITS, radix_sort

    rng = np.random.default_rng(n % 1000)
    k = min(n, 3000)
    keys = rng.choice(n, k, replace=False) if n < 1 << 30 else np.unique(rng.integers(0, n, k))
    a = np.concatenate([keys.astype(np.int64), [-7, -7]])  # entries past k stay as they are
    tmp, count = np.empty(a.size, np.int64), np.empty(1 << RADIX_BITS, np.int64)
    radix_sort(a, tmp, keys.size, n, count)
    assert np.array_equal(a[:keys.size], np.sort(keys)) and list(a[keys.size:]) == [-7, -7]


@settings(max_examples=examples(40))
@given(gemm_problems())
def test_csrgeam_matches_scipy(q):
    p, m, n = q["p"], q["m"], q["n"]
    rng = np.random.default_rng(q["seed"])
    a, b = random_csr(rng, m, n, q["density"], p.dtype), random_csr(rng, m, n, q["density"] / 2, p.dtype)
    ba, bb, _, bc = q["bases"]
    it = q["itype"]
    (av, ap, ai), (bv, bp, bi) = _dev(a, ba, it), _dev(b, bb, it)
    da, db, dc = _descr(ba), _descr(bb), _descr(bc)
    h = rs.create_handle()
    alpha, beta = scalar(p, q["alpha"] or 2.0), scalar(p, q["beta"] if q["beta"] is not None else -1.0)
    cp = rm.to_device(np.zeros(m + 1, it))
    nnz = rs.csrgeam_nnz(h, m, n, da, a.nnz, ap, ai, db, b.nnz, bp, bi, dc, cp, None)
    struct = (abs(a).astype(bool).astype(float) + abs(b).astype(bool).astype(float)).tocsr()
    struct.sort_indices()
    assert nnz == struct.nnz
    cv, ci = rm.empty(nnz, p.dtype), rm.empty(nnz, it)
    _fn(p, "csrgeam")(h, m, n, alpha, da, a.nnz, av, ap, ai, beta, db, b.nnz, bv, bp, bi, dc, cv, cp, ci)
    if m and n and nnz:
        got = sp.csr_matrix((cv.get(), ci.get() - bc, cp.get() - bc), shape=(m, n))
        assert got.has_sorted_indices and np.array_equal(got.indices, struct.indices)
        assert_close(got.toarray(), np.asarray((alpha * a + beta * b).toarray(), p.dtype), p, "elementwise", 2,
                     scale=scale_of(p, abs(alpha) * abs(a).toarray(), abs(beta) * abs(b).toarray()))


def test_csrgeam_requires_sorted_storage_and_general():
    h = rs.create_handle()
    a = sp.identity(3, format="csr")
    _, pt, ix = _dev(a, 0, np.int32)
    unsorted = rs.create_mat_descr()
    rs.set_mat_storage_mode(unsorted, rs.StorageMode.unsorted)
    with pytest.raises(rs.SparseRequiresSortedStorageError) as exc:
        rs.csrgeam_nnz(h, 3, 3, rs.create_mat_descr(), 3, pt, ix, unsorted, 3, pt, ix, rs.create_mat_descr(),
                       rm.empty(4, np.int32), None)
    assert exc.value.arg == "descr_B"
    with pytest.raises(rs.SparseInvalidPointerError) as exc:
        rs.dcsrgeam(h, 3, 3, None, rs.create_mat_descr(), 3, None, pt, ix, 1.0, rs.create_mat_descr(), 3, None, pt, ix,
                    rs.create_mat_descr(), None, None, None)
    assert exc.value.arg == "alpha"
