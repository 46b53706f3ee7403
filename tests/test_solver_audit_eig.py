"""Audit of the symmetric eigenvalue and SVD family against rocSOLVER's source: the behaviours it fixed.

Each test names the rocSOLVER file (line ranges at the audited snapshot) it follows.  The argument checks,
quick returns, strides and the other info conventions already matched and are covered by
:mod:`test_solver_eig`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import scipy.linalg as sl
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver_eig import (
    FLAVOURS,
    SUFFIX,
    Matrix,
    Vector,
    check_svd,
    closing,
    hermitian,
    per_entry,
    positive_definite,
    random,
    run_svd,
    run_syevj,
    wide,
)

from rocmath import blas, solver
from rocmath.precision import SDCZ, C, D, Precision, S, Z
from rocmath.solver.eig import SYEVJ_BLOCKED_SWITCH
from rocmath.testing import examples


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


def run_gesvdj(handle: Any, p: Precision, flavour: str, a: np.ndarray, abstol: float,
               max_sweeps: int) -> tuple[np.ndarray, ...]:
    """gesvdj without vectors (U, V null); returns S, info, residual, n_sweeps; A must stay as it was."""
    batch, m, n = a.shape
    k = min(m, n)
    real = p.real.dtype
    A, Sv = Matrix(a, m, flavour), Vector(np.zeros((batch, k), real), flavour)
    info, res, sweeps = per_entry(batch, np.int32), per_entry(batch, real), per_entry(batch, np.int32)
    args: dict[str, Any] = dict(left_svect=194, right_svect=194, m=m, n=n, A=A.arg, lda=m, strideA=A.stride,
                                abstol=abstol, residual=res.ptr, max_sweeps=max_sweeps, n_sweeps=sweeps.ptr,
                                S=Sv.arg, strideS=Sv.stride, U=None, ldu=1, strideU=1, V=None, ldv=1, strideV=1,
                                info=info.ptr, batch_count=batch)
    f = getattr(solver, f"{p.letter}gesvdj{SUFFIX[flavour]}")
    with closing(A, Sv, info, res, sweeps):
        f(handle, **{name: v for name, v in args.items() if name in f.__signature__.parameters})
        A.check(logical=True)
        Sv.check()
        for x in (info, res, sweeps):
            x.check_untouched()
        return Sv.get(), info.get()[:, 0], res.get()[:, 0], sweeps.get()[:, 0]


# --- syevj/heevj: info and n_sweeps when max_sweeps runs out ---------------------------------------------


@settings(max_examples=examples(12))
@given(p=st.sampled_from(SDCZ), flavour=st.sampled_from(FLAVOURS), n=st.integers(3, SYEVJ_BLOCKED_SWITCH),
       seed=st.integers(0, 2**32 - 1))
def test_syevj_single_kernel_sizes_report_nonconvergence(handle: Any, p: Precision, flavour: str, n: int,
                                                         seed: int) -> None:
    # roclapack_syevj_heevj.hpp 1461-1475 (n <= SYEVJ_BLOCKED_SWITCH = 58: syevj_small_kernel) and
    # run_syevj 173-339: the loop runs while sweeps < max_sweeps and the residual is above the tolerance,
    # then tests sweeps <= max_sweeps, which always holds, so its info = 1 branch never runs.  rocmath
    # keeps the documented info = 1 (not converged) rather than hide the failure; n_sweeps = max_sweeps.
    batch = 1 if flavour == "plain" else 2
    a = hermitian(p, batch, n, np.random.default_rng(seed))
    a[:, -1, 0] = a[:, 0, -1] = 1  # an off-diagonal element one sweep cannot annihilate for good
    _, _, info, res, sweeps = run_syevj(handle, p, flavour, a, n + 1, "U", False, True, 1e-20, 1, gap=1)
    fro = np.sqrt((np.abs(wide(a)) ** 2).sum(axis=(1, 2)))
    assert np.all(res > 1e-20 * fro), "not converged"
    assert np.array_equal(info, np.ones(batch)) and np.array_equal(sweeps, np.ones(batch))


@pytest.mark.parametrize("p", (S, Z))
def test_syevj_blocked_sizes_report_nonconvergence_strictly(handle: Any, p: Precision) -> None:
    # roclapack_syevj_heevj.hpp 1476-1598 (n > 58: blocked kernels): syevj_init 557-571 and
    # syevj_calc_norm 1187-1197 mark an entry done once residual < tolerance (strictly); syevj_finalize
    # 1234-1249 writes n_sweeps = max_sweeps and info = 1 for the others.  So a zero matrix (residual ==
    # tolerance == 0) and a NaN residual count as not converged.  Was: info 0 and 0 sweeps for both.
    n = SYEVJ_BLOCKED_SWITCH + 6
    rng = np.random.default_rng(3)
    a = hermitian(p, 3, n, rng)
    a[1] = 0
    a[2, 5, 3] = a[2, 3, 5] = np.nan
    w, v, info, res, sweeps = run_syevj(handle, p, "strided", a, n, "L", True, True, 1e-20, 2)
    assert np.array_equal(info, [1, 1, 1]) and np.array_equal(sweeps, [2, 2, 2])
    assert res[0] > 0 and res[1] == 0 and np.isnan(res[2])
    assert not w[1].any() and np.array_equal(v[1], np.eye(n))  # the sweeps change nothing in a zero matrix
    # the single kernel (n <= 58) converges at once on both: `residual > tolerance` is false
    w, v, info, res, sweeps = run_syevj(handle, p, "strided", a[1:, :9, :9], 9, "L", True, True, 1e-20, 2)
    assert not info.any() and not sweeps.any() and res[0] == 0 and np.isnan(res[1])
    assert np.array_equal(v[0], np.eye(9))


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("vectors", (False, True))
def test_syevj_rounds_tiny_off_diagonal_elements_to_zero(handle: Any, p: Precision, vectors: bool) -> None:
    # roclapack_syevj_heevj.hpp run_syevj 190-205 and 276-281: an element with |a_ij|^2 < safemin / eps
    # gets the identity rotation (c = 1, s = 0), and a_ij, a_ji are then rounded to zero like every visited
    # pair.  Was: the pair was skipped and kept, so the residual never fell below the tolerance (max_sweeps
    # sweeps, residual ~ |a_ij|).
    real = p.real.dtype
    tiny = np.sqrt(np.finfo(real).tiny) * 1e-2  # its square is subnormal, below safemin / eps
    a = np.zeros((2, 3, 3), p.dtype)
    a[0, 0, 2] = a[0, 2, 0] = tiny
    a[1, 0, 1] = a[1, 1, 0] = tiny
    w, v, info, res, sweeps = run_syevj(handle, p, "batched", a, 3, "U", vectors, True, 0.0, 20)
    assert np.array_equal(info, [0, 0]) and np.array_equal(sweeps, [1, 1]) and not res.any() and not w.any()
    if vectors:
        assert np.array_equal(v, np.stack([np.eye(3)] * 2))


@pytest.mark.parametrize("p", (S, C))
def test_jacobi_abstol_is_taken_in_the_real_type(handle: Any, p: Precision) -> None:
    # roclapack_syevj_heevj.hpp 1406 and 1453-1455: abstol is a parameter of the real type S and
    # atol = (abstol <= 0 ? eps : abstol), so a value that underflows to 0 in single precision selects eps
    # (roclapack_gesvdj.hpp 325-329 passes it on).  Was: compared before rounding (1e-300 > 0, then a
    # tolerance of 0: extra sweeps).
    a = hermitian(p, 1, 6, np.random.default_rng(9))
    ref = run_syevj(handle, p, "plain", a, 6, "L", True, True, 0.0, 50)
    got = run_syevj(handle, p, "plain", a, 6, "L", True, True, 1e-300, 50)
    assert all(np.array_equal(x, y) for x, y in zip(ref, got, strict=True))
    b = random(p, (1, 7, 5), np.random.default_rng(10))
    ref, got = run_gesvdj(handle, p, "plain", b, 0.0, 50), run_gesvdj(handle, p, "plain", b, -1e-300, 50)
    assert all(np.array_equal(x, y) for x, y in zip(ref, got, strict=True))
    got = run_gesvdj(handle, p, "plain", b, 1e-300, 50)
    assert all(np.array_equal(x, y) for x, y in zip(ref, got, strict=True))


# --- gesvdj: info as syevj of order min(m, n) ---------------------------------------------------------------


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize(("m", "n"), [(12, 10), (10, 12), (70, 64), (64, 70)])
def test_gesvdj_info_follows_syevj_of_order_min_m_n(handle: Any, p: Precision, m: int, n: int) -> None:
    # roclapack_gesvdj.hpp 313-329 and 365-381: gesvdj is syevj of -A^H A (order n, m >= n) or -A A^H
    # (order m): its info and n_sweeps, the single kernel's convergence test up to order 58, the blocked
    # kernels' past it (info = 1 when max_sweeps ran out at every order, as syevj: see above).  Was: a zero
    # matrix converged at every order.
    k = min(m, n)
    a = random(p, (2, m, n), np.random.default_rng(m * n))
    a[1] = 0
    s, info, res, sweeps = run_gesvdj(handle, p, "strided", a, 1e-20, 1)
    blocked = k > SYEVJ_BLOCKED_SWITCH
    assert res[0] > 0 and sweeps[0] == 1 and info[0] == 1
    # zero matrix: converged at once by the single kernel, never by the blocked one
    assert res[1] == 0 and not s[1].any() and (info[1], sweeps[1]) == ((1, 1) if blocked else (0, 0))


# --- sygv/hegv: B not positive definite -------------------------------------------------------------------


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("vectors", (False, True))
@pytest.mark.parametrize("flavour", ("strided", "batched"))
def test_sygv_goes_on_when_b_is_not_positive_definite(handle: Any, p: Precision, vectors: bool,
                                                       flavour: str) -> None:
    # roclapack_sygv_hegv.hpp 231-256 (and the TODO at 236-239): potrf's info does not stop sygst, syev and
    # the back-transformation, which run on the partial factor; sygv_update_info 43-55 then sets
    # info = n + potrf's info.  A is destroyed, D and E (its first n - 1 elements) written.  Was: A, D and
    # E left as they were.  The other entries are solved as usual; E[n - 1] and the padding stay untouched.
    n, uplo = 5, "L"
    rng = np.random.default_rng(2)
    a, b = hermitian(p, 3, n, rng), positive_definite(p, 3, n, rng)
    b[1, 3, 3] = -100.0  # leading minor 4 fails
    real = p.real.dtype
    sentinel = 7.0
    A, B = Matrix(a, n + 1, flavour), Matrix(b, n + 2, flavour)
    Dv, Ev = Vector(np.full((3, n), sentinel, real), flavour, 1), Vector(np.full((3, n), sentinel, real), flavour, 2)
    info = per_entry(3, np.int32)
    f = getattr(solver, f"{p.letter}{'he' if p.is_complex else 'sy'}gv{SUFFIX[flavour]}")
    with closing(A, B, Dv, Ev, info):
        args = dict(itype=221, evect=211 if vectors else 213, uplo=uplo, n=n, A=A.arg, lda=A.ld, strideA=A.stride,
                    B=B.arg, ldb=B.ld, strideB=B.stride, D=Dv.arg, strideD=Dv.stride, E=Ev.arg, strideE=Ev.stride,
                    info=info.ptr, batch_count=3)
        f(handle, **{name: v for name, v in args.items() if name in f.__signature__.parameters})
        for operand in (A, B, Dv, Ev):
            operand.check()
        info.check_untouched()
        x, d, e, got_info = A.get(), Dv.get(), Ev.get(), info.get()[:, 0]
    assert np.array_equal(got_info, [0, n + 4, 0])
    lower = np.tril(np.ones((n, n), bool))
    assert not np.array_equal(x[1][lower], a[1][lower])  # destroyed
    if not vectors:  # the triangle uplo does not name is never referenced
        assert np.array_equal(x[1][~lower], a[1][~lower])
    assert np.all(d[1] != sentinel)
    assert np.array_equal(e[:, : n - 1], np.zeros((3, n - 1))) and np.all(e[:, n - 1] == sentinel)
    for j in (0, 2):
        ref = sl.eigh(wide(a[j]), wide(b[j]), eigvals_only=True)
        assert np.allclose(d[j], ref, rtol=0, atol=100 * n * p.eps * np.abs(ref).max())


# --- gesvd: NaN or Inf in A ----------------------------------------------------------------------------------


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize(("left", "right"), [("S", "A"), ("N", "N"), ("O", "S"), ("A", "O")])
def test_gesvd_of_non_finite_entries(handle: Any, p: Precision, left: str, right: str) -> None:
    # roclapack_gesvd.hpp 545-553, 635-643, 822-840, 916-934: every path ends in bdsqr of the bidiagonal
    # form, which a NaN or Inf in A makes non-finite; rocauxiliary_bdsqr.hpp bdsqr_init 396-437 then sets
    # D (= S) and E to NaN and info = n (= min(m, n)), and bdsqr_finalize 984-986 leaves them.  Was: LAPACK
    # ran on the NaN (a DLASCL error message, info 0, E = 0).  The vectors and A are garbage: NaN here.
    m, n = 6, 4
    a = random(p, (3, m, n), np.random.default_rng(6))
    a[1, 2, 1] = np.inf
    a[2, 4, 3] = complex(0, np.nan) if p.is_complex else np.nan
    out = run_svd(handle, "gesvd", p, "strided", a, left, right, m + 1, pad=1, gap=1)
    assert np.array_equal(out["info"], [0, n, n])
    assert np.isnan(out["S"][1:]).all() and np.isnan(out["E"][1:]).all()
    for name in ("A", "U", "V"):
        assert np.isnan(out[name][1:]).all()
    assert not out["E"][0].any()
    check_svd(a[:1], {k: v[:1] for k, v in out.items()}, left, right, p)


def test_gesvd_non_finite_1x1_and_wide(handle: Any) -> None:
    # The same rule for a 1 x 1 (bdsqr of order 1: rocauxiliary_bdsqr.hpp 413-414) and a wide matrix.
    for a in (np.array([[[-np.inf]]]), np.array([[[1.0, 2.0, np.nan], [3.0, 4.0, 5.0]]])):
        out = run_svd(handle, "gesvd", D, "plain", a, "N", "N", a.shape[1])
        k = min(a.shape[1:])
        assert np.array_equal(out["info"], [k]) and np.isnan(out["S"]).all() and np.isnan(out["E"]).all()
    # and finite entries keep their usual results: the check is per entry
    b = random(D, (2, 3, 3), np.random.default_rng(1))
    out = run_svd(handle, "gesvd", D, "batched", b, "N", "N", 3)
    assert not out["info"].any() and np.allclose(out["S"], np.linalg.svd(b, compute_uv=False))
