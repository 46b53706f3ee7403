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
import scipy.linalg.lapack as lapack
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver_lu import Matrix, closing, random
from test_solver_qr import block_reflector, check_factor, fn, rel, run_factor, same_bits, wide

import rocmath as rm
import rocmath.testing as rt
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


@settings(max_examples=rt.examples(40), deadline=None)
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


# --- larfg: rocSOLVER's run_set_taubeta, not LAPACK's xLARFG, where the two differ -----------------
#
# rocauxiliary_larfg.hpp, run_set_taubeta (real: lines 41-63, complex: 65-102) and
# rocsolver_larfg_template (lines 212-220: real n == 1; 242-252: the squared norm of x by dot, then
# set_taubeta, then x scaled by the factor it leaves in norms, 1 when tau = 0).  The small-size kernel
# (rocauxiliary_larfg_specialized_kernels.hpp) runs the same run_set_taubeta.  The QR family's small
# entries (min(m, n) <= SMALL) factor through the same kernel, so they follow too.


def real_dtype(p: Precision) -> np.dtype[Any]:
    return np.finfo(p.dtype).dtype


def run_larfg(handle: Any, p: Precision, alpha: Any, x: np.ndarray, incx: int = 2) -> tuple[Any, np.ndarray, Any]:
    """larfg of order len(x) + 1 on poisoned device operands (x with gaps, alpha and tau with margins);
    returns (alpha, x, tau) after checking that nothing else was written (x too when n == 1)."""
    n = len(x) + 1
    A = rt.poisoned_device_vector(np.array([alpha], p.dtype))
    T = rt.poisoned_device_vector(np.array([7], p.dtype))
    X = rt.poisoned_device_vector(np.asarray(x, p.dtype) if n > 1 else np.zeros(1, p.dtype), incx)
    with closing(A, T, X):
        fn("larfg", p)(handle, n, A.ptr, X.ptr if n > 1 else None, incx, T.ptr)
        A.check_untouched()
        T.check_untouched()
        X.check_untouched(logical=n == 1)
        return A.get()[0], X.get()[: n - 1], T.get()[0]


def positive_zero(v: Any) -> bool:
    """v is +0 (+0 + 0i) bit for bit."""
    return not np.atleast_1d(np.asarray(v)).view(np.uint8).any()


@pytest.mark.parametrize("p", SDCZ)
def test_larfg_negative_zero_alpha_takes_the_non_negative_branch(handle: Any, p: Precision) -> None:
    # rocauxiliary_larfg.hpp line 47 (real) `n = alpha[0] >= 0 ? -n : n;`, line 79 (complex)
    # `n = ar >= 0 ? -n : n;`: -0.0 >= 0, so alpha = -0.0 gives beta = -norm and v = x / (alpha - beta)
    # = x / norm (line 50; lines 83-86), tau = (n - alpha) / n = 1 (line 53; lines 90-92).
    # Was: LAPACK's beta = -SIGN(norm, alpha), whose SIGN sees the sign bit: beta = +norm, v = -x / norm.
    x = np.full(4, 2, p.dtype)  # ||x|| = 4: every value below is exact
    beta, v, tau = run_larfg(handle, p, p.dtype.type(-0.0), x)
    assert beta == -4 and np.signbit(beta.real) and positive_zero(beta.imag)
    assert tau == 1 and positive_zero(tau.imag)
    assert np.array_equal(v, np.full(4, 0.5)) and not np.signbit(v.real).any()
    ref_beta, ref_v, ref_tau = lapack.get_lapack_funcs("larfg", dtype=p.dtype)(5, p.dtype.type(-0.0), x.copy())
    assert ref_beta == 4 and ref_tau == 1 and np.array_equal(ref_v, -v)  # LAPACK's, the old values
    # +0.0 (unchanged) lands in the same branch; a negative alpha in the other.
    beta, v, tau = run_larfg(handle, p, p.dtype.type(0.0), x)
    assert beta == -4 and tau == 1 and np.array_equal(v, np.full(4, 0.5))
    beta, v, tau = run_larfg(handle, p, p.dtype.type(-2.0), np.full(3, 2, p.dtype))  # norm 4 again
    assert beta == 4 and tau == 1.5 and np.array_equal(v, np.full(3, -1 / 3, p.dtype))


@pytest.mark.parametrize("p", [p for p in SDCZ if p.is_complex])
def test_larfg_complex_alpha_with_negative_zero_real_part(handle: Any, p: Precision) -> None:
    # rocauxiliary_larfg.hpp line 79: the branch is taken on ar = re(alpha) alone, so -0.0 + 3i takes
    # beta = -norm too.  norm = sqrt(||x||^2 + |alpha|^2) = 5 exactly here.  Was: beta = +5.
    alpha = p.dtype.type(complex(-0.0, 3.0))
    x = np.array([0, 0, 4], p.dtype)
    beta, v, tau = run_larfg(handle, p, alpha, x)
    assert beta == -5 and np.signbit(beta.real) and positive_zero(beta.imag)
    n = -5.0
    r = (0.0 - n) ** 2 + 9.0  # lines 83-92: scaling factor and tau by rocSOLVER's formulas
    want_v, want_tau = x * complex((0.0 - n) / r, -3.0 / r), complex((n - 0.0) / n, -3.0 / n)
    assert tau.real == 1 and abs(tau - want_tau) <= 2 * p.eps
    assert rel(v, want_v) <= 4 * p.eps
    # The reflector does its job: H^H [alpha; x] = [beta; 0].
    u = np.concatenate([[1], wide(v)])
    h = np.eye(4) - complex(tau) * np.outer(u, u.conj())
    assert rel(h.conj().T @ np.concatenate([[complex(alpha)], wide(x)]), np.array([-5, 0, 0, 0])) < 30 * p.eps


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("n", [1, 4])
@pytest.mark.parametrize("value", [np.inf, -np.inf, np.nan])
def test_larfg_nonfinite_alpha_with_zero_x_gives_identity(handle: Any, p: Precision, n: int, value: float) -> None:
    # rocauxiliary_larfg.hpp lines 215-219: real n == 1 sets tau = 0 and reads nothing else; otherwise
    # (and for complex n == 1, where ||x||^2 = 0) lines 44 / 75 see norms = 0 (and m = im(alpha)^2 = 0 or
    # NaN, not > 0), so lines 58-62 / 97-101 set tau = 0, leave alpha as it is and scale x by 1.
    # Was: tau = alpha - alpha = NaN.
    alpha = p.dtype.type(value)
    x = np.zeros(n - 1, p.dtype)
    beta, v, tau = run_larfg(handle, p, alpha, x)
    assert positive_zero(tau)
    assert same_bits(np.array([beta]), np.array([alpha]))  # NaN's bits too
    assert same_bits(v, x)  # +0s, not -0s


@pytest.mark.parametrize("p", [p for p in SDCZ if p.is_complex])
@pytest.mark.parametrize("n", [1, 4])
def test_larfg_complex_nan_alpha_with_zero_x_gives_identity(handle: Any, p: Precision, n: int) -> None:
    # rocauxiliary_larfg.hpp lines 73-75: m = ai * ai is NaN for a NaN imaginary part, and NaN > 0 is
    # false: tau = 0 (lines 97-101), alpha left as it is.  Was: a reflector of NaNs.
    for alpha in (complex(np.nan, np.nan), complex(1.0, np.nan), complex(np.inf, 0.0)):
        a = p.dtype.type(alpha)
        beta, v, tau = run_larfg(handle, p, a, np.zeros(n - 1, p.dtype))
        assert positive_zero(tau), alpha
        assert same_bits(np.array([beta]), np.array([a])) and positive_zero(v), alpha


@pytest.mark.parametrize("p", [p for p in SDCZ if p.is_complex])
@pytest.mark.parametrize("n", [1, 4])
def test_larfg_complex_alpha_whose_imaginary_part_squares_to_zero(handle: Any, p: Precision, n: int) -> None:
    # rocauxiliary_larfg.hpp lines 72-75: m = ai * ai in the real type S of the precision; with x = 0
    # and m == 0 (underflow) the test `norms[0].real() > 0 || m > 0` fails: tau = 0 (lines 97-101), alpha
    # left complex as it is.  Was: LAPACK's test `alphi == 0`, a reflector making beta real.
    r = real_dtype(p)
    tiny, subnormal = (r.type(1e-30), r.type(1e-22)) if p.dtype == np.complex64 else (r.type(1e-200), r.type(1e-160))
    assert tiny * tiny == 0 and 0 < subnormal * subnormal < np.finfo(r).tiny  # in the working precision
    alpha = p.dtype.type(complex(1.5, tiny))
    x = np.zeros(n - 1, p.dtype)
    beta, v, tau = run_larfg(handle, p, alpha, x)
    assert positive_zero(tau)
    assert same_bits(np.array([beta]), np.array([alpha])) and beta.imag == tiny
    assert same_bits(v, x)
    _, _, ref_tau = lapack.get_lapack_funcs("larfg", dtype=p.dtype)(n, alpha, np.zeros(max(n - 1, 1), p.dtype))
    assert ref_tau.real == 2  # LAPACK's, the old value: a reflector
    # A square that is subnormal but not 0 (m > 0) still builds the reflector: beta = -|alpha| = -1.5.
    alpha = p.dtype.type(complex(1.5, subnormal))
    beta, v, tau = run_larfg(handle, p, alpha, x)
    assert beta == -1.5 and positive_zero(beta.imag)
    assert tau.real == 2 and abs(tau.imag - float(subnormal) / 1.5) <= p.eps * float(subnormal)
    assert same_bits(v, x)  # 0 * scale: still +0
    # With x != 0 the x term keeps the reflector (line 75), whatever m is.
    beta, v, tau = run_larfg(handle, p, p.dtype.type(complex(3.0, tiny)), np.array([4], p.dtype))
    assert beta == -5 and abs(tau - 1.6) < 2 * p.eps and abs(v[0] - 0.5) < 2 * p.eps


@pytest.mark.parametrize("p", SDCZ)
def test_larfg_nan_in_x_gives_identity(handle: Any, p: Precision) -> None:
    # rocauxiliary_larfg.hpp lines 242-244: norms = x^H x is NaN; NaN > 0 is false (line 44 / 75), so
    # tau = 0, alpha left as it is and x scaled by norms = 1 (lines 58-62 / 97-101, 252): unchanged.
    # Was: a reflector of NaNs (alpha := NaN).
    alpha = p.dtype.type(3)
    x = np.array([1, np.nan, 2], p.dtype)
    beta, v, tau = run_larfg(handle, p, alpha, x)
    assert positive_zero(tau) and same_bits(np.array([beta]), np.array([alpha])) and same_bits(v, x)


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("kind", ["qr", "lq"])
@pytest.mark.parametrize("flavour", ["plain", "strided", "batched"])
def test_factorizations_follow_larfg_on_negative_zero(handle: Any, p: Precision, kind: str, flavour: str) -> None:
    # roclapack_geqr2.hpp line 134 / roclapack_gelq2.hpp line 139 call rocsolver_larfg_template on each
    # column (row): a leading -0.0 over [2, 2, 2, 2] gives beta = -4, v = 0.5, tau = 1 as in larfg
    # (rocauxiliary_larfg.hpp line 47 / 79).  Was: beta = +4, v = -0.5 (LAPACK's).  gelq2 conjugates the
    # row back after larfg (roclapack_gelq2.hpp lines 163-165), beta included: complex L(0, 0) = -4 - 0i.
    col = np.array([-0.0, 2, 2, 2, 2])
    rng = np.random.default_rng(3)
    a = random(p, (1 if flavour == "plain" else 2, 5, 3), rng)
    a[:, :, 0] = col
    if kind == "lq":
        a = np.ascontiguousarray(a.transpose(0, 2, 1))  # row 0 is [-0.0, 2, 2, 2, 2]
    routine = "geqrf" if kind == "qr" else "gelqf"
    got, tau = run_factor(handle, routine, p, flavour, a, a.shape[1] + 1, gap=2, tgap=1)
    for e in range(a.shape[0]):
        beta = got[e, 0, 0]
        below = got[e, 1:, 0] if kind == "qr" else got[e, 0, 1:]
        assert beta == -4 and np.signbit(beta.real)
        assert np.signbit(beta.imag) == (kind == "lq" and p.is_complex)
        assert tau[e, 0] == 1 and np.array_equal(below, np.full(4, 0.5))
    check_factor(kind, p, a, got, tau, unique=False)  # a valid factorization all the same


@pytest.mark.parametrize("p", SDCZ)
def test_factorization_with_an_infinite_column_leaves_the_rest_finite(handle: Any, p: Precision) -> None:
    # rocauxiliary_larfg.hpp lines 44 / 75: a column [inf; 0; 0] gets tau = 0 (H = I, lines 58-62 /
    # 97-101), so geqr2 (roclapack_geqr2.hpp) applies nothing to the trailing columns.  Was: tau = NaN,
    # and the NaN reflector spread over every later column.  LAPACK's xLARFG also gives tau = 0 here.
    a = np.array([[[np.inf, 1, 2], [0, 2, 1], [0, 3, 5]]], p.dtype)
    got, tau = run_factor(handle, "geqrf", p, "plain", a, 4)
    assert positive_zero(tau[0, 0]) and same_bits(got[0, :, 0], a[0, :, 0])
    assert np.isfinite(got[0, :, 1:]).all() and np.isfinite(tau[0, 1:]).all()
    rest, rest_tau = lapack.get_lapack_funcs("geqrf", dtype=p.dtype)(a[0, 1:, 1:])[:2]  # the 2 x 2 below
    assert rel(got[0, 1:, 1:], rest) < 30 * p.eps and rel(tau[0, 1:], rest_tau) < 30 * p.eps
    assert same_bits(got[0, 0, 1:], a[0, 0, 1:])  # row 0 untouched by H(1) = I
