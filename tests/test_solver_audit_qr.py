"""Audit of the Householder family against rocSOLVER's source: the behaviours fixed by it.

Each test names the rocSOLVER file it follows.  Everything else the audit compared
(argument checks, quick returns, info and tau conventions) already matched and is
covered by :mod:`test_solver_qr`.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import scipy.linalg.cython_lapack as clapack
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver_lu import Matrix, closing, examples, random
from test_solver_qr import block_reflector, fn, rel, wide

import rocmath as rm
from rocmath import blas, solver
from rocmath.precision import SDCZ, Precision
from rocmath.solver._lapack import _capsule_address

DIRECT = {"F": solver.Direct.forward_direction, "B": solver.Direct.backward_direction}
STOREV = {"C": solver.Storev.column_wise, "R": solver.Storev.row_wise}


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


def lapack_larfb(p: Precision, side: str, trans: str, direct: str, storev: str, v: np.ndarray, t: np.ndarray,
                  a: np.ndarray) -> np.ndarray:
    """Reference LAPACK's xLARFB (scipy's, through its Fortran API), the CPU reference rocSOLVER's own
    larfb tests compare with."""
    proto = ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * 15))
    larfb = proto(_capsule_address(clapack.__pyx_capi__[p.letter + "larfb"]))
    out, v, t = np.asfortranarray(a.copy()), np.asfortranarray(v), np.asfortranarray(t)
    m, n = out.shape
    k = t.shape[0]
    ldwork = n if side == "L" else m
    work = np.zeros((ldwork, k), out.dtype, order="F")

    def char(c: str) -> Any:
        return ctypes.byref(ctypes.c_char(c.encode()))

    def int_(i: int) -> Any:
        return ctypes.byref(ctypes.c_int(i))

    larfb(char(side), char(trans), char(direct), char(storev), int_(m), int_(n), int_(k), v.ctypes.data,
          int_(v.shape[0]), t.ctypes.data, int_(k), out.ctypes.data, int_(m), work.ctypes.data, int_(ldwork))
    return out


# --- larft: the whole k x k T is written ------------------------------------------------------------


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("direct", "FB")
@pytest.mark.parametrize("storev", "CR")
def test_larft_writes_zeros_in_the_unused_triangle(handle: Any, p: Precision, direct: str, storev: str) -> None:
    # rocauxiliary_larft.hpp (set_triangular, launched before the gemv/trmv loop): every entry of the
    # k x k T is written; the triangle the factor does not use (strictly lower for forward, strictly
    # upper for backward) becomes 0.  Was: left as it was.  The padding rows (ldt > k) stay untouched.
    rng = np.random.default_rng(11)
    n, k = 7, 4
    forward, rowwise = direct == "F", storev == "R"
    v = random(p, (1, k, n) if rowwise else (1, n, k), rng)
    tau = random(p, (k,), rng)
    V, T = Matrix(v, v.shape[1] + 1, "plain"), Matrix(np.zeros((1, k, k), p.dtype), k + 2, "plain")
    T.mats[0].poison()  # every element of T reads as the sentinel until written
    dtau = rm.to_device(tau)
    with closing(V, T):
        fn("larft", p)(handle, DIRECT[direct], STOREV[storev], n, k, V.arg, V.ld, dtau, T.arg, T.ld)
        V.check(logical=True)
        T.check()
        t = T.get()[0]
    assert np.array_equal(dtau.get(), tau)
    unused = np.tril_indices(k, -1) if forward else np.triu_indices(k, 1)
    assert not t[unused].view(np.uint8).any()  # +0 exactly, bit for bit
    h, vc = block_reflector(forward, rowwise, v[0], tau)
    assert rel(np.eye(n) - vc @ wide(t) @ vc.conj().T, h) < 30 * n * p.eps  # the factor itself, as before


def test_larft_quick_return_leaves_t_untouched(handle: Any) -> None:
    # rocauxiliary_larft.hpp: n == 0 returns before set_triangular, so nothing of T is written.
    k = 3
    T = Matrix(np.zeros((1, k, k)), k + 1, "plain")
    T.mats[0].poison()
    tau = rm.to_device(np.ones(k))
    with closing(T):
        solver.dlarft(handle, DIRECT["F"], STOREV["C"], 0, k, None, 1, tau, T.arg, T.ld)
        T.check()
        assert np.isnan(T.get()).all()  # still the sentinel everywhere


# --- larfb: op(T) from the right is trans as given ---------------------------------------------------


@settings(max_examples=examples(40), deadline=None)
@given(st.data())
def test_larfb_matches_reference_larfb_for_every_trans(handle: Any, data: st.DataObject) -> None:
    # rocauxiliary_larfb.hpp (rocsolver_larfb_template): from the left, trans T is taken as C (transt);
    # from the right, the trmm with T gets trans as given, so a complex trans T gives
    # A (I - V T^T V^H) (row-wise: A (I - V^H T^T V)), not A H^H, as reference LAPACK's xLARFB.
    # Was: A H^H.  T's unused triangle is never read; V and T are left as they were.
    p = data.draw(st.sampled_from(SDCZ))
    side, direct, storev = data.draw(st.sampled_from("LR")), data.draw(st.sampled_from("FB")), \
        data.draw(st.sampled_from("CR"))
    trans = data.draw(st.sampled_from("NTC"))
    k = data.draw(st.integers(1, 4))
    nq, other = data.draw(st.integers(k, 8)), data.draw(st.integers(1, 6))
    m, n = (nq, other) if side == "L" else (other, nq)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    v = random(p, (1, k, nq) if storev == "R" else (1, nq, k), rng)
    t = random(p, (1, k, k), rng)  # both triangles filled: only the factor's may be read
    a = random(p, (1, m, n), rng)
    tri = np.triu(t[0]) if direct == "F" else np.tril(t[0])
    ref = lapack_larfb(p, side, trans, direct, storev, v[0], tri, a[0])
    V, T, A = Matrix(v, v.shape[1] + 1, "plain"), Matrix(t, k + 1, "plain"), Matrix(a, m + 2, "plain")
    with closing(V, T, A):
        fn("larfb", p)(handle, side, trans, DIRECT[direct], STOREV[storev], m, n, k, V.arg, V.ld, T.arg, T.ld,
                       A.arg, A.ld)
        V.check(logical=True)
        T.check(logical=True)
        A.check()
        got = A.get()[0]
    assert rel(got, ref) < 30 * max(m, n) * p.eps


@pytest.mark.parametrize("p", [p for p in SDCZ if p.is_complex])
@pytest.mark.parametrize("storev", "CR")
def test_complex_larfb_from_the_right_with_trans_t(handle: Any, p: Precision, storev: str) -> None:
    # rocauxiliary_larfb.hpp: transt = trans from the right.  The values by definition: A (I - V T^T V^H)
    # for column-wise vectors, which differs from A H^H (trans C) for complex T.
    rng = np.random.default_rng(5)
    m, n, k = 3, 6, 3
    rowwise = storev == "R"
    v = random(p, (1, k, n) if rowwise else (1, n, k), rng)
    t = np.triu(random(p, (1, k, k), rng))
    a = random(p, (1, m, n), rng)
    _, vc = block_reflector(True, rowwise, v[0], np.zeros(k, p.dtype))  # the vectors as columns, unit entries
    tri = wide(t[0])
    want = wide(a[0]) @ (np.eye(n) - vc @ tri.T @ vc.conj().T)
    conj_trans = wide(a[0]) @ (np.eye(n) - vc @ tri.conj().T @ vc.conj().T)
    outs = {}
    for trans in "TC":
        V, T, A = Matrix(v, v.shape[1], "plain"), Matrix(t, k, "plain"), Matrix(a, m, "plain")
        with closing(V, T, A):
            fn("larfb", p)(handle, "R", trans, DIRECT["F"], STOREV[storev], m, n, k, V.arg, V.ld, T.arg, T.ld,
                           A.arg, A.ld)
            V.check(logical=True)
            T.check(logical=True)
            A.check()
            outs[trans] = A.get()[0]
    assert rel(outs["T"], want) < 30 * n * p.eps
    assert rel(outs["C"], conj_trans) < 30 * n * p.eps
    assert rel(outs["T"], outs["C"]) > 1e-3  # the two really differ for complex T
