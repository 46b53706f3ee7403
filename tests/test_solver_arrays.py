"""rocmath.solver's Pythonic layer (solver/arrays.py): SciPy-style calls on DeviceArrays.

Batches over leading axes (including empty ones), C and F order, broadcasting between
operands, in-place work when ``overwrite_*`` allows it (strided batched, or pointer
arrays for a batch without a uniform stride), inputs left alone otherwise; results
checked against NumPy/SciPy (residual ratios, SciPy's 0-based pivots, info per entry
against scipy's LAPACK).  ``errstate(linalg="raise")`` raises LinAlgError naming the
failing entries; outside it nothing waits and ``info`` rides on the result.  qr, eigh, svd
and lstsq are checked by LAPACK's residual and orthogonality ratios and against NumPy's
shapes and values for every mode.
"""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest
import scipy.linalg
import scipy.linalg.lapack as lapack
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver_cholesky import chol_ratio, hpd
from test_solver_eig import check_eigen, check_svd, hermitian, with_junk
from test_solver_lu import random, separated, wide

import rocmath as rm
import rocmath.testing as rt
from rocmath import DeviceArray, solver
from rocmath.errors import RocmathError
from rocmath.precision import SDCZ, D, Precision, Z
from rocmath.solver import InfoArray, LinAlgError, errstate


def as_f_stack(host: np.ndarray) -> DeviceArray:
    """A stack whose matrices are column-major (batch axes outermost)."""
    return rm.to_device(np.ascontiguousarray(np.swapaxes(host, -1, -2))).transpose(
        *range(host.ndim - 2), host.ndim - 1, host.ndim - 2)


batch_shapes = st.sampled_from([(), (0,), (1,), (3,), (2, 2), (2, 0, 3)])


@settings(max_examples=rt.examples(30))
@given(st.data())
def test_cholesky_matches_lapack(data: st.DataObject) -> None:
    p = data.draw(st.sampled_from(SDCZ))
    shape = data.draw(batch_shapes)
    n = data.draw(rt.sizes(max_value=10))
    lower, order = data.draw(st.booleans()), data.draw(st.sampled_from("CF"))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    count = int(np.prod(shape))
    bad = tuple(e for e in range(count) if data.draw(st.booleans()) and data.draw(st.booleans()))
    a, expected = hpd(p, count, n, rng, not lower, bad)
    a = np.where(np.isnan(a), 0, a).reshape(*shape, n, n)
    src = as_f_stack(a) if order == "F" else rm.to_device(a)
    c = solver.cholesky(src, lower=lower)
    assert isinstance(c, InfoArray) and c.shape == a.shape and c.dtype == p.dtype
    info, got = c.info.get(), c.get()
    assert info.shape == shape and np.array_equal(info.reshape(count), expected)
    assert np.array_equal(src.get(), a)  # the input is not touched
    flat, gotf = a.reshape(count, n, n), got.reshape(count, n, n)
    potrf = lapack.get_lapack_funcs("potrf", dtype=p.dtype)
    for e in range(count if n else 0):
        assert potrf(flat[e], lower=lower)[1] == expected[e]
    ok = info.reshape(count) == 0
    if n and ok.any():
        assert chol_ratio(flat[ok], gotf[ok], not lower, p) < rt.RESIDUAL_THRESHOLD
        other = np.triu(gotf[ok], 1) if lower else np.tril(gotf[ok], -1)
        assert not other.any()  # SciPy's clean factor


@pytest.mark.parametrize("p", SDCZ)
def test_solvers_match_numpy(p: Precision) -> None:
    rng = np.random.default_rng(1)
    n, k = 7, 3
    a = separated(p, 6, n, n, rng).reshape(2, 3, n, n)
    b = random(p, (3, n, k), rng)  # broadcast over the first batch axis
    spd, _ = hpd(p, 6, n, rng, True)
    spd = np.where(np.isnan(spd), np.conj(np.swapaxes(spd, -1, -2)), spd).reshape(2, 3, n, n)
    d = np.arange(n)
    spd[..., d, d] = spd[..., d, d].real
    da, db, ds = rm.to_device(a), as_f_stack(b), rm.to_device(spd)
    tol = rt.RESIDUAL_THRESHOLD
    x = solver.solve(da, db)
    assert x.shape == (2, 3, n, k) and np.array_equal(x.info.get(), np.zeros((2, 3)))
    assert rt.backward_error(a, x.get(), np.broadcast_to(b, x.shape), precision=p) < tol
    lu, piv = solver.lu_factor(da)
    ref = [scipy.linalg.lu_factor(m) for m in a.reshape(-1, n, n)]
    assert piv.dtype == np.int32 and np.array_equal(piv.get().reshape(-1, n), [r[1] for r in ref])  # 0-based
    for trans in (0, 1, 2):
        x = solver.lu_solve((lu, piv), db, trans=trans)
        op = {0: a, 1: np.swapaxes(a, -1, -2), 2: np.conj(np.swapaxes(a, -1, -2))}[trans]
        assert rt.backward_error(op, x.get(), np.broadcast_to(b, x.shape), precision=p) < tol
    inv = solver.inv(da)
    resid = np.abs(np.eye(n) - wide(a) @ wide(inv.get())).sum(axis=-2).max(axis=-1)
    norm = lambda m: np.abs(wide(m)).sum(axis=-2).max(axis=-1)  # noqa: E731
    assert (resid / (n * norm(a) * norm(inv.get()) * p.eps)).max() < tol
    for lower in (True, False):
        cf = solver.cho_factor(ds, lower=lower)
        x = solver.cho_solve(cf, db)
        assert rt.backward_error(spd, x.get(), np.broadcast_to(b, x.shape), precision=p) < tol
    v = random(p, (n,), rng)
    xv = solver.cho_solve(cf, rm.to_device(v))
    assert xv.shape == (2, 3, n)
    assert rt.backward_error(spd, xv.get(), np.broadcast_to(v, xv.shape), precision=p) < tol
    assert rt.backward_error(a, solver.solve(da, rm.to_device(v)).get(), np.broadcast_to(v, (2, 3, n)),
                             precision=p) < tol


def test_singular_and_non_positive_definite_entries_are_data() -> None:
    rng = np.random.default_rng(2)
    a = separated(D, 4, 5, 5, rng, singular=(2,))
    b = random(D, (4, 5, 1), rng)
    x = solver.solve(rm.to_device(a), rm.to_device(b))
    info = x.info.get()
    assert info[2] > 0 and not info[[0, 1, 3]].any()
    assert np.array_equal(x.get()[2], b[2])  # rocSOLVER leaves a singular entry's b as it was
    lu, _ = solver.lu_factor(rm.to_device(a))
    assert np.array_equal(lu.info.get(), info)
    assert np.array_equal(solver.inv(rm.to_device(a)).info.get(), info)


def test_errstate_raise_names_the_failing_entries() -> None:
    rng = np.random.default_rng(3)
    a, _ = hpd(D, 6, 4, rng, True, bad=(1, 4))
    a = np.where(np.isnan(a), 0, a).reshape(2, 3, 4, 4)
    da = rm.to_device(a)
    assert solver.geterr() == {"linalg": "ignore"}
    with errstate(linalg="raise"):
        assert solver.geterr() == {"linalg": "raise"}
        with pytest.raises(LinAlgError) as err:
            solver.cholesky(da)
        with errstate(linalg="ignore"):
            solver.cholesky(da)  # nested: ignored again
        solver.cholesky(rm.to_device(np.eye(3)))  # nothing failed
    assert solver.geterr() == {"linalg": "ignore"}
    e = err.value
    assert e.entries == ((0, 1), (1, 1)) and len(e.info) == 2 and all(i > 0 for i in e.info)
    assert "(0, 1)" in str(e) and "not positive definite" in str(e)
    assert isinstance(e, np.linalg.LinAlgError) and isinstance(e, RocmathError)
    again = pickle.loads(pickle.dumps(e))
    assert (again.entries, again.info, str(again)) == (e.entries, e.info, str(e))
    singular = separated(D, 1, 3, 3, rng, singular=(0,))[0]
    for call in (lambda m: solver.solve(m, rm.to_device(np.ones(3))), solver.inv, solver.lu_factor):
        with errstate(linalg="raise"), pytest.raises(LinAlgError, match="singular") as err:
            call(rm.to_device(singular))
        assert err.value.entries == ((),)
    with pytest.raises(ValueError), errstate(linalg="warn"):
        pass


def test_nothing_waits_outside_errstate(monkeypatch: pytest.MonkeyPatch) -> None:
    # info is read back only under errstate(linalg="raise").
    a, _ = hpd(D, 3, 4, np.random.default_rng(4), False, bad=(0,))
    da = rm.to_device(np.where(np.isnan(a), 0, a))
    rm.device_synchronize()

    def no_reads(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a device-to-host read")

    monkeypatch.setattr(DeviceArray, "get", no_reads)
    c = solver.cholesky(da, lower=True)
    solver.inv(da)
    monkeypatch.undo()
    assert c.info.get()[0] > 0


def test_overwrite_works_in_place_when_the_layout_allows() -> None:
    rng = np.random.default_rng(5)
    a, _ = hpd(Z, 6, 5, rng, False)
    a = np.where(np.isnan(a), np.conj(np.swapaxes(a, -1, -2)), a)
    d = np.arange(5)
    a[:, d, d] = a[:, d, d].real
    ref = np.linalg.cholesky(a)
    f = as_f_stack(a)
    c = solver.cholesky(f, lower=True, overwrite_a=True)
    assert c.ptr == f.ptr and np.allclose(f.get(), ref, atol=1e-12)  # strided batched, in place
    # Every other entry: no uniform stride over the two batch axes -> pointer arrays, in place.
    before = as_f_stack(a.reshape(2, 3, 5, 5)).get()
    whole = as_f_stack(a.reshape(2, 3, 5, 5))
    view = whole[:, ::2]
    c = solver.cholesky(view, lower=True, overwrite_a=True)
    assert c.ptr == view.ptr
    after = whole.get()
    assert np.allclose(after[:, ::2], ref.reshape(2, 3, 5, 5)[:, ::2], atol=1e-12)
    assert np.array_equal(after[:, 1], before[:, 1])  # the entries in between are not touched
    # Row-major input cannot be the output: a copy, the input unchanged.
    r = rm.to_device(a)
    c = solver.cholesky(r, lower=True, overwrite_a=True)
    assert c.ptr != r.ptr and np.array_equal(r.get(), a)
    # overwrite_b: the solution in b.
    b = as_f_stack(random(Z, (6, 5, 2), rng))
    x = solver.cho_solve((c, True), b, overwrite_b=True)
    assert x.ptr == b.ptr


def test_arguments_are_checked() -> None:
    m = rm.to_device(np.eye(3))
    with pytest.raises(TypeError):
        solver.cholesky(np.eye(3))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="square"):
        solver.inv(rm.to_device(np.ones((3, 4))))
    with pytest.raises(ValueError, match="rows"):
        solver.solve(m, rm.to_device(np.ones(4)))
    with pytest.raises(ValueError, match="broadcast"):
        solver.solve(rm.to_device(np.ones((2, 3, 3))), rm.to_device(np.ones((3, 3, 1))))
    with pytest.raises(ValueError, match="trans"):
        solver.lu_solve(solver.lu_factor(m), m, trans=3)
    with pytest.raises(TypeError, match="float16"):
        solver.inv(rm.to_device(np.eye(2, dtype=np.float16)))
    x = solver.inv(rm.to_device(np.eye(3, dtype=np.int64) * 2))  # integers compute in float64
    assert x.dtype == np.float64 and np.array_equal(x.get(), np.eye(3) / 2)


def test_on_a_stream() -> None:
    a, _ = hpd(D, 2, 4, np.random.default_rng(6), True)
    a = np.where(np.isnan(a), 0, a)
    with rm.Stream() as s:
        c = solver.cholesky(rm.to_device(a, s))
        got = c.get(s)
    assert np.allclose(got, np.stack([scipy.linalg.cholesky(np.triu(m) + np.triu(m, 1).T) for m in a]))


def as_order(host: np.ndarray, order: str) -> DeviceArray:
    return as_f_stack(host) if order == "F" else rm.to_device(host)


shapes = st.sampled_from([(0, 0), (1, 1), (4, 4), (7, 3), (3, 7), (0, 3), (5, 0), (16, 9), (9, 16)])


@settings(max_examples=rt.examples(30))
@given(st.data())
def test_qr_matches_numpy(data: st.DataObject) -> None:
    p = data.draw(st.sampled_from(SDCZ))
    batch = data.draw(batch_shapes)
    m, n = data.draw(shapes)
    order = data.draw(st.sampled_from("CF"))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    a = random(p, (*batch, m, n), rng)
    src = as_order(a, order)
    k = min(m, n)
    tol = rt.RESIDUAL_THRESHOLD
    count = int(np.prod(batch))
    flat = a.reshape(count, m, n)
    for mode, (qcols, rrows) in {"reduced": (k, k), "complete": (m, m)}.items():
        q, r = solver.qr(src, mode=mode)
        assert (q.shape, r.shape, q.dtype, r.dtype) == ((*batch, m, qcols), (*batch, rrows, n), p.dtype, p.dtype)
        qh, rh = q.get().reshape(count, m, qcols), r.get().reshape(count, rrows, n)
        assert not np.tril(rh, -1).any()
        if flat.size:
            assert rt.qr_residual_ratio(flat, qh, rh, precision=p) < tol
        if qh.size:
            assert rt.orthogonality_ratio(qh, precision=p) < tol
        assert np.array_equal(solver.qr(src, mode="r").get(), r.get()[..., :k, :])
    h, tau = solver.qr(src, mode="raw")
    assert h.shape == (*batch, n, m) and tau.shape == (*batch, k)
    if flat.size:  # NumPy's raw output, entry by entry (LAPACK's geqrf, transposed)
        ref = [np.linalg.qr(e, mode="raw") for e in flat]
        scale = np.abs(flat).max() * max(m, n) * p.eps * tol
        assert np.allclose(h.get().reshape(count, n, m), [r[0] for r in ref], rtol=0, atol=scale)
        assert np.allclose(tau.get().reshape(count, k), [r[1] for r in ref], rtol=0, atol=tol * max(m, n) * p.eps)
    assert np.array_equal(src.get(), a)  # the input is not touched
    with pytest.raises(ValueError, match="mode"):
        solver.qr(src, mode="economic")


@settings(max_examples=rt.examples(30))
@given(st.data())
def test_eigh_matches_lapack(data: st.DataObject) -> None:
    p = data.draw(st.sampled_from(SDCZ))
    batch = data.draw(batch_shapes)
    n = data.draw(rt.sizes(max_value=12))
    lower, order = data.draw(st.booleans()), data.draw(st.sampled_from("CF"))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    count = int(np.prod(batch))
    a = hermitian(p, count, n, rng)
    given_a = with_junk(a, "L" if lower else "U", rng).reshape(*batch, n, n)  # the other triangle is not read
    src = as_order(given_a, order)
    w, v = solver.eigh(src, lower=lower)
    assert (w.shape, v.shape, w.dtype, v.dtype) == ((*batch, n), (*batch, n, n), p.real.dtype, p.dtype)
    assert isinstance(w, InfoArray) and not w.info.get().any() and w.info.shape == batch
    check_eigen(a, w.get().reshape(count, n), v.get().reshape(count, n, n), p)
    only = solver.eigh(src, lower=lower, eigvals_only=True)
    assert isinstance(only, InfoArray) and only.shape == (*batch, n)
    check_eigen(a, only.get().reshape(count, n), None, p)  # values alone: another algorithm, other rounding
    assert np.array_equal(src.get(), given_a)


@settings(max_examples=rt.examples(30))
@given(st.data())
def test_svd_matches_lapack(data: st.DataObject) -> None:
    p = data.draw(st.sampled_from(SDCZ))
    batch = data.draw(batch_shapes)
    m, n = data.draw(shapes)
    order = data.draw(st.sampled_from("CF"))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    count = int(np.prod(batch))
    a = random(p, (*batch, m, n), rng)
    src = as_order(a, order)
    k = min(m, n)
    flat = a.reshape(count, m, n)
    for full in (True, False):
        u, s, vh = solver.svd(src, full_matrices=full)
        ucols, vrows = (m, n) if full else (k, k)
        assert (u.shape, s.shape, vh.shape) == ((*batch, m, ucols), (*batch, k), (*batch, vrows, n))
        assert s.dtype == p.real.dtype and u.dtype == vh.dtype == p.dtype and not s.info.get().any()
        uh, sh, vhh = u.get().reshape(count, m, ucols), s.get().reshape(count, k), vh.get().reshape(count, vrows, n)
        if count and k:
            check_svd(flat, {"S": sh, "U": uh, "V": vhh}, "A" if full else "S", "A" if full else "S", p)
        elif count and full:  # an empty matrix: NumPy's identities
            assert np.array_equal(uh, np.broadcast_to(np.eye(m), uh.shape))
            assert np.array_equal(vhh, np.broadcast_to(np.eye(n), vhh.shape))
        only = solver.svd(src, full_matrices=full, compute_uv=False)
        assert isinstance(only, InfoArray) and only.shape == (*batch, k)
        assert np.allclose(only.get(), s.get(), rtol=0, atol=rt.RESIDUAL_THRESHOLD * max(m, n, 1) * p.eps
                           * (np.abs(a).sum(axis=-2).max(initial=0) + 1))
    assert np.array_equal(src.get(), a)


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize(("m", "n"), [(9, 4), (4, 9), (6, 6)])
def test_lstsq_matches_numpy(p: Precision, m: int, n: int) -> None:
    rng = np.random.default_rng(7)
    a = random(p, (2, 3, m, n), rng)
    b = random(p, (3, m, 2), rng)  # broadcast over the first batch axis
    x, residues, rank, s = solver.lstsq(as_f_stack(a), rm.to_device(b))
    assert x.shape == (2, 3, n, 2) and rank == min(m, n) and s is None and not x.info.get().any()
    bs = np.broadcast_to(b, (2, 3, m, 2)).reshape(-1, m, 2)
    ref = [np.linalg.lstsq(wide(e), wide(f), rcond=None) for e, f in zip(a.reshape(-1, m, n), bs, strict=True)]
    got = x.get().reshape(-1, n, 2)
    cond = max(np.linalg.cond(wide(e)) for e in a.reshape(-1, m, n))
    scale = rt.RESIDUAL_THRESHOLD * max(m, n) * p.eps * cond * max(np.abs(r[0]).max() for r in ref)
    assert np.allclose(got, [r[0] for r in ref], rtol=0, atol=scale)
    if m > n:
        assert residues.shape == (2, 3, 2) and residues.dtype == p.real.dtype
        assert np.allclose(residues.get().reshape(-1, 2), [r[1] for r in ref], rtol=1e-3 if p.eps > 1e-10 else 1e-9)
    else:
        assert residues.shape == (2, 3, 0)
    v = random(p, (m,), rng)
    xv, rv, _, _ = solver.lstsq(rm.to_device(a[0, 0]), rm.to_device(v))
    assert xv.shape == (n,) and rv.shape == (() if m > n else (0,))
    assert np.allclose(xv.get(), np.linalg.lstsq(wide(a[0, 0]), wide(v), rcond=None)[0], rtol=0, atol=scale)


def test_lstsq_rank_deficient_and_empty() -> None:
    rng = np.random.default_rng(8)
    a = random(D, (3, 6, 4), rng)
    a[1, :, 2] = 0  # an exact zero on R's diagonal
    b = random(D, (3, 6, 1), rng)
    x, _, _, _ = solver.lstsq(rm.to_device(a), rm.to_device(b))
    info = x.info.get()
    assert info[1] == 3 and not info[[0, 2]].any()
    with errstate(linalg="raise"), pytest.raises(LinAlgError, match="full rank") as err:
        solver.lstsq(rm.to_device(a), rm.to_device(b))
    assert err.value.entries == ((1,),)
    x, residues, rank, _ = solver.lstsq(rm.to_device(np.ones((3, 0))), rm.to_device(np.ones((3, 2))))
    assert x.shape == (0, 2) and rank == 0 and np.array_equal(residues.get(), [3.0, 3.0])
    x, _, _, _ = solver.lstsq(rm.to_device(np.ones((0, 3))), rm.to_device(np.ones((0, 2))))
    assert np.array_equal(x.get(), np.zeros((3, 2)))  # the minimum norm solution of no equations


def test_eigh_and_svd_report_non_convergence() -> None:
    # NaN entries do not converge: info > 0 for them, the others are unaffected.
    a = hermitian(D, 3, 5, np.random.default_rng(9))
    a[1, 2, 3] = a[1, 3, 2] = np.nan
    w, v = solver.eigh(rm.to_device(a))
    assert w.info.get()[1] > 0 and not w.info.get()[[0, 2]].any()
    assert np.array_equal(v.info.get(), w.info.get())
    s = solver.svd(rm.to_device(a))[1]
    assert s.info.get()[1] > 0 and not s.info.get()[[0, 2]].any()
    for call, what in ((solver.eigh, "eigenvalue"), (solver.svd, "SVD")):
        with errstate(linalg="raise"), pytest.raises(LinAlgError, match=what) as err:
            call(rm.to_device(a))
        assert err.value.entries == ((1,),)
    check_eigen(a[[0, 2]], w.get()[[0, 2]], v.get()[[0, 2]], D)


def test_qr_and_eigh_work_in_place_when_allowed() -> None:
    rng = np.random.default_rng(10)
    a = random(Z, (4, 6, 3), rng)
    f = as_f_stack(a)
    q, r = solver.qr(f, overwrite_a=True)
    assert q.ptr == f.ptr and rt.qr_residual_ratio(a, q.get(), r.get(), precision=Z) < rt.RESIDUAL_THRESHOLD
    c = rm.to_device(a)
    q, _ = solver.qr(c, overwrite_a=True)  # row-major: a copy
    assert q.ptr != c.ptr and np.array_equal(c.get(), a)
    hm = hermitian(Z, 2, 4, rng)
    f = as_f_stack(hm)
    w, v = solver.eigh(f, overwrite_a=True)
    assert v.ptr == f.ptr
    check_eigen(hm, w.get(), v.get(), Z)
