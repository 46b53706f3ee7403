"""rocmath.sparse Level 1 (axpyi, doti, dotci, gthr, gthrz, sctr, roti) against numpy, with rocSPARSE's statuses."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rocmath as rm
import rocmath.sparse as rs
from rocmath.precision import SDCZ, Precision
from rocmath.testing import examples

TOL = {"s": 1e-4, "d": 1e-12, "c": 1e-4, "z": 1e-12}


def fn(p: Precision, name: str):
    return getattr(rs, f"{p.letter}{name}")


def rnd(rng, n, p: Precision):
    v = rng.standard_normal(n) + (1j * rng.standard_normal(n) if p.is_complex else 0)
    return v.astype(p.dtype)


@settings(max_examples=examples(40), deadline=None)
@given(n=st.sampled_from([1, 7, 100, 40000]), frac=st.sampled_from([0.0, 0.3, 1.0]), p=st.sampled_from(SDCZ),
       base=st.sampled_from([0, 1]), itype=st.sampled_from([np.int32, np.int64]), device=st.booleans(),
       seed=st.integers(0, 2**16))
def test_level1_matches_numpy(n, frac, p, base, itype, device, seed):
    rng = np.random.default_rng(seed)
    nnz = int(n * frac)
    ind = np.sort(rng.choice(n, nnz, replace=False))  # distinct indices: every routine is defined
    xv, y = rnd(rng, nnz, p), rnd(rng, n, p)
    dind = rm.to_device((ind + base).astype(itype))
    h = rs.create_handle()
    tol = TOL[p.letter] * max(1, np.sqrt(nnz))
    alpha = p.dtype.type(1.5 - 0.5j if p.is_complex else 1.5)

    def scalar(v):
        return rm.to_device(np.array([v], p.dtype)) if device else v

    rs.set_pointer_mode(h, rs.PointerMode.device if device else rs.PointerMode.host)
    dy = rm.to_device(y)
    fn(p, "axpyi")(h, nnz, scalar(alpha), rm.to_device(xv), dind, dy, base)
    ref = y.copy()
    ref[ind] += alpha * xv
    np.testing.assert_allclose(dy.get(), ref, rtol=tol, atol=tol)

    for name, conj in [("doti", False)] + ([("dotci", True)] if p.is_complex else []):
        expect = np.sum((np.conj(xv) if conj else xv) * y[ind])
        if device:
            res = rm.to_device(np.full(1, 9, p.dtype))
            assert fn(p, name)(h, nnz, rm.to_device(xv), dind, rm.to_device(y), res, base) is None
            got = res.get()[0]
        else:
            got = fn(p, name)(h, nnz, rm.to_device(xv), dind, rm.to_device(y), None, base)
        np.testing.assert_allclose(got, expect, rtol=tol, atol=tol)

    dx, dy = rm.to_device(np.zeros(nnz, p.dtype)), rm.to_device(y)
    fn(p, "gthr")(h, nnz, dy, dx, dind, base)
    assert np.array_equal(dx.get(), y[ind]) and np.array_equal(dy.get(), y)
    fn(p, "gthrz")(h, nnz, dy, dx, dind, base)
    zeroed = y.copy()
    zeroed[ind] = 0
    assert np.array_equal(dx.get(), y[ind]) and np.array_equal(dy.get(), zeroed)

    dy = rm.to_device(y)
    fn(p, "sctr")(h, nnz, rm.to_device(xv), dind, dy, base)
    scattered = y.copy()
    scattered[ind] = xv
    assert np.array_equal(dy.get(), scattered)

    if not p.is_complex:
        c, s = p.dtype.type(0.6), p.dtype.type(0.8)
        dx, dy = rm.to_device(xv), rm.to_device(y)
        fn(p, "roti")(h, nnz, dx, dind, dy, scalar(c), scalar(s), base)
        ry = y.copy()
        ry[ind] = c * y[ind] - s * xv
        np.testing.assert_allclose(dx.get(), c * xv + s * y[ind], rtol=tol, atol=tol)
        np.testing.assert_allclose(dy.get(), ry, rtol=tol, atol=tol)


def test_level1_quick_returns_and_statuses():
    h = rs.create_handle()
    y = rm.to_device(np.arange(4.0))
    ind = rm.to_device(np.array([0, 2], np.int32))
    x = rm.to_device(np.array([1.0, 1.0]))
    # nnz == 0: nothing is checked beyond the sizes, doti returns 0.
    rs.daxpyi(h, 0, None, None, None, None, 0)
    assert rs.ddoti(h, 0, None, None, None, None, 0) == 0
    rs.dgthr(h, 0, None, None, None, 0)
    # alpha == 0 (host mode): no pointer is looked at.
    rs.daxpyi(h, 2, 0.0, None, None, None, 0)
    rs.droti(h, 2, x, ind, y, 1.0, 0.0, 0)
    assert np.array_equal(y.get(), np.arange(4.0))
    with pytest.raises(rs.SparseInvalidSizeError) as e:
        rs.daxpyi(h, -1, 1.0, x, ind, y, 0)
    assert e.value.arg == "nnz" and e.value.index == 2
    with pytest.raises(rs.SparseInvalidValueError) as e:
        rs.daxpyi(h, 2, 1.0, x, ind, y, 5)
    assert e.value.arg == "idx_base"
    with pytest.raises(rs.SparseInvalidPointerError) as e:
        rs.daxpyi(h, 2, None, x, ind, y, 0)
    assert e.value.arg == "alpha"
    with pytest.raises(rs.SparseInvalidPointerError) as e:
        rs.ddoti(h, 2, x, None, y, None, 0)
    assert e.value.arg == "x_ind"
    with pytest.raises(rs.SparseInvalidPointerError) as e:
        rs.dgthrz(h, 2, y, None, ind, 9)  # gthrz checks the arrays before the base
    assert e.value.arg == "x_val"
    with pytest.raises(rs.SparseInvalidPointerError) as e:
        rs.droti(h, 2, x, ind, y, 0.5, None, 0)
    assert e.value.arg == "s" and e.value.index == 7
    rs.set_pointer_mode(h, rs.PointerMode.device)
    with pytest.raises(rs.SparseInvalidPointerError) as e:
        rs.ddoti(h, 2, x, ind, y, None, 0)
    assert e.value.arg == "result"
    res = rm.to_device(np.full(1, 5.0))
    rs.ddoti(h, 0, None, None, None, res, 0)
    assert res.get()[0] == 0

