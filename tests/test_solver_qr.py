"""rocSOLVER's Householder family: geqr2/geqrf, gelq2/gelqf, geql2/geqlf, gerq2/gerqf, org*/ung*, orm*/unm*, gels,
lacgv, larfg, larf, larft, larfb.

Factorizations are judged by LAPACK's ratios (``||A - Q R|| / (max(m, n) ||A|| eps)``,
``||I - Q^H Q|| / (n eps)``, threshold 30) with Q built here from the Householder
vectors and scalars by LAPACK's documented definitions, and against scipy's LAPACK
where the outputs are unique (geqrf, gerqf; LQ and QL through their definitions as
QR of A^H and of the reversed matrix).  Operands live in poisoned buffers whose
padding must survive; read-only ones must keep their bits.  Sizes include 0, 1,
tall and wide, the three flavours, four precisions, and sizes past ``SMALL`` (the
LAPACK path).  gels is compared with scipy.linalg.lstsq on well-conditioned
matrices, and on singular members gives rocSOLVER's info.  Argument checks follow
rocSOLVER's order.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
import scipy.linalg
import scipy.linalg.lapack as lapack
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver_lu import FLAVOURS, SUFFIX, Matrix, closing, info_array, random

import rocmath as rm
import rocmath.testing as rt
from rocmath import blas, solver
from rocmath.errors import (
    RocblasInvalidHandleError,
    RocblasInvalidPointerError,
    RocblasInvalidSizeError,
    RocblasInvalidValueError,
    RocblasStatus,
)
from rocmath.precision import SDCZ, C, D, Precision, S, Z
from rocmath.solver import _kernels_qr as kq

BIG = kq.SMALL + 6  # the LAPACK path
KINDS = {"qr": ("geqr2", "geqrf"), "lq": ("gelq2", "gelqf"), "ql": ("geql2", "geqlf"), "rq": ("gerq2", "gerqf")}


@pytest.fixture(scope="module")
def handle() -> Iterator[Any]:
    h = blas.create_handle()
    yield h
    blas.destroy_handle(h)


def fn(routine: str, p: Precision, flavour: str = "plain") -> Callable[..., Any]:
    """The bound function; org*/orm* are ung*/unm* in complex precisions."""
    if p.is_complex and routine[:2] == "or":
        routine = "un" + routine[2:]
    return getattr(solver, f"{p.letter}{routine}{SUFFIX[flavour]}")


class Tau:
    """A (batch, k) stack of Householder scalars as rocSOLVER's ``ipiv``: one device array in every
    flavour, entries ``k + gap`` apart, gaps poisoned; unwritten elements read as the sentinel."""

    def __init__(self, p: Precision, batch: int, k: int, flavour: str, gap: int = 0,
                 host: np.ndarray | None = None):
        data = np.zeros((batch, k, 1), p.dtype) if host is None else np.asarray(host, p.dtype)[:, :, None]
        self.plain = flavour == "plain"
        if self.plain:
            self.mat, self.stride = rt.poisoned_device_matrix(data[0], max(1, k)), 0
        else:
            self.mat = rt.poisoned_device_matrix(data, max(1, k), stride=max(1, k) + gap)
            self.stride = self.mat.stride
        if host is None:
            self.mat.poison()
        self.arg = self.mat.ptr

    def get(self) -> np.ndarray:
        data = self.mat.get()
        return (data[None] if self.plain else data)[..., 0]

    def check(self, logical: bool = False) -> None:
        self.mat.check_untouched(logical=logical)

    def close(self) -> None:
        self.mat.close()


def call(handle: Any, routine: str, p: Precision, flavour: str, batch: int, **args: Any) -> None:
    """Call with plain values and operands (a Matrix gives pointer, ld<name>, stride<name>; a Tau
    is ``ipiv`` with its ``strideP``)."""
    f = fn(routine, p, flavour)
    names = list(inspect.signature(f).parameters)
    values: dict[str, Any] = {"handle": handle, "batch_count": batch}
    for name, value in args.items():
        if isinstance(value, Matrix):
            values[name], values[f"ld{name.lower()}"], values[f"stride{name}"] = value.arg, value.ld, value.stride
        elif isinstance(value, Tau):
            values[name], values["strideP"] = value.arg, value.stride
        elif isinstance(value, rt.PaddedDeviceMatrix):
            values[name] = value.ptr
        else:
            values[name] = value
    f(**{n: values[n] for n in names})


def padded(tau: np.ndarray) -> np.ndarray:
    """tau as a (1, max(k, 1)) host stack (an empty tau still gets a buffer)."""
    out = np.zeros((1, max(len(tau), 1)), tau.dtype)
    out[0, : len(tau)] = tau
    return out


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()


def wide(x: np.ndarray) -> np.ndarray:
    return x.astype(np.complex128 if np.iscomplexobj(x) else np.float64)


def rel(x: np.ndarray, ref: np.ndarray) -> float:
    """Normwise relative difference (max over everything)."""
    scale = np.abs(wide(ref)).max(initial=0.0)
    return float(np.abs(wide(x) - wide(ref)).max(initial=0.0) / (scale if scale else 1.0))


# --- Q from Householder vectors, by LAPACK's definitions -------------------------------------------


def reflector(v: np.ndarray, tau: complex) -> np.ndarray:
    v = wide(v)
    return np.eye(len(v), dtype=np.complex128) - tau * np.outer(v, v.conj())


def householder(kind: str, out: np.ndarray, tau: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(Q, the triangular factor) of one factored matrix: A = Q[:, -k:] L (ql), Q[:, :k] R (qr),
    L Q[:k] (lq), R Q[-k:] (rq), each Q square and built as LAPACK documents it."""
    m, n = out.shape
    k = min(m, n)
    nq = n if kind in ("lq", "rq") else m
    hs = []
    for i in range(k):
        v = np.zeros(nq, out.dtype)
        if kind == "qr":
            v[i], v[i + 1:] = 1, out[i + 1:, i]
        elif kind == "lq":
            v[i], v[i + 1:] = 1, out[i, i + 1:].conj()
        elif kind == "ql":
            p = m - k + i
            v[p], v[:p] = 1, out[:p, n - k + i]
        else:
            p = n - k + i
            v[p], v[:p] = 1, out[m - k + i, :p].conj()
        hs.append(reflector(v, tau[i]))
    q = np.eye(nq, dtype=np.complex128)
    # qr: H1...Hk; lq: Hk^H...H1^H; ql: Hk...H1; rq: H1^H...Hk^H
    seq = {"qr": hs, "lq": [h.conj().T for h in reversed(hs)], "ql": list(reversed(hs)),
           "rq": [h.conj().T for h in hs]}[kind]
    for h in seq:
        q = q @ h
    tri = {"qr": np.triu(out[:k]), "lq": np.tril(out[:, :k]), "ql": np.tril(out[m - k:], n - k),
           "rq": np.triu(out[:, n - k:], k - m)}[kind]
    return q, tri


def reconstruct(kind: str, q: np.ndarray, tri: np.ndarray) -> np.ndarray:
    k = min(tri.shape)
    if kind == "qr":
        return q[:, :k] @ tri
    if kind == "lq":
        return tri @ q[:k]
    if kind == "ql":
        return q[:, q.shape[1] - k:] @ tri
    return tri @ q[q.shape[0] - k:]


def lapack_factor(kind: str, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """scipy's LAPACK on one matrix: geqrf, gerqf; LQ = QR of A^H and QL = QR of the reversed matrix
    (what LAPACK's gelqf/geqlf compute, by their definitions)."""
    geqrf = lapack.get_lapack_funcs("geqrf", dtype=a.dtype)
    lwork = 64 * max(1, *a.shape)
    if kind == "qr":
        out, tau = geqrf(a, lwork=lwork)[:2]
    elif kind == "rq":
        out, tau = lapack.get_lapack_funcs("gerqf", dtype=a.dtype)(a, lwork=lwork)[:2]
    elif kind == "lq":
        out, tau = geqrf(np.ascontiguousarray(a.conj().T), lwork=lwork)[:2]
        out = out.conj().T
    else:
        out, tau = geqrf(np.ascontiguousarray(a[::-1, ::-1]), lwork=lwork)[:2]
        out, tau = out[::-1, ::-1], tau[::-1]
    return np.asarray(out), np.asarray(tau)


# --- strategies ----------------------------------------------------------------------------------

small = rt.sizes(max_value=9)


@st.composite
def setup(draw: st.DrawFn, precisions: tuple[Precision, ...] = SDCZ) -> tuple[Precision, str, int, int, int]:
    """(precision, flavour, batch count, gap between strided entries, seed)."""
    p = draw(st.sampled_from(precisions))
    flavour = draw(st.sampled_from(FLAVOURS))
    batch = 1 if flavour == "plain" else draw(st.integers(0, 4))
    return p, flavour, batch, draw(st.integers(0, 2)), draw(st.integers(0, 2**32 - 1))


def run_factor(handle: Any, routine: str, p: Precision, flavour: str, a: np.ndarray, lda: int, gap: int = 0,
               tgap: int = 0) -> tuple[np.ndarray, np.ndarray]:
    batch, m, n = a.shape
    A, T = Matrix(a, lda, flavour, gap), Tau(p, batch, min(m, n), flavour, tgap)
    with closing(A, T):
        call(handle, routine, p, flavour, batch, m=m, n=n, A=A, ipiv=T)
        A.check()
        T.check()
        return A.get(), T.get()


def check_factor(kind: str, p: Precision, a: np.ndarray, got: np.ndarray, tau: np.ndarray,
                 unique: bool = True) -> None:
    """The ratios, real betas and (for a matrix of full rank, whose factors are unique) LAPACK's outputs."""
    for e in range(a.shape[0]):
        q, tri = householder(kind, got[e], tau[e])
        assert rt.orthogonality_ratio(q, precision=p) < rt.RESIDUAL_THRESHOLD
        resid = wide(a[e]) - reconstruct(kind, q, tri)
        anorm = np.abs(wide(a[e])).sum(axis=0).max(initial=0)
        ratio = np.abs(resid).sum(axis=0).max(initial=0) / (max(a.shape[1:]) * max(anorm, 1e-300) * p.eps)
        assert ratio < rt.RESIDUAL_THRESHOLD, (kind, e, ratio)
        m, n = a.shape[1:]
        k = min(m, n)
        first = np.arange(k)
        rows, cols = (first, first) if kind in ("qr", "lq") else (m - k + first, n - k + first)
        assert not got[e, rows, cols].imag.any()  # beta is real
        if not unique:
            continue
        out, ref_tau = lapack_factor(kind, a[e])
        assert rel(tau[e], ref_tau) < 30 * max(a.shape[1:]) * p.eps
        assert rel(got[e], out) < 30 * max(a.shape[1:]) * p.eps


# --- the factorizations --------------------------------------------------------------------------


@settings(max_examples=rt.examples(60))
@given(st.data())
def test_factorizations(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed = data.draw(setup())
    kind = data.draw(st.sampled_from(list(KINDS)))
    routine = data.draw(st.sampled_from(KINDS[kind]))
    m, n = data.draw(small), data.draw(small)
    lda = data.draw(rt.leading_dimensions(m, max_padding=3))
    a = random(p, (batch, m, n), np.random.default_rng(seed))
    got, tau = run_factor(handle, routine, p, flavour, a, lda, gap, data.draw(st.integers(0, 2)))
    if m == 0 or n == 0:
        assert same_bits(got, a)
        return
    check_factor(kind, p, a, got, tau)


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("kind", list(KINDS))
def test_factorizations_large_go_to_lapack(handle: Any, p: Precision, kind: str) -> None:
    rng = np.random.default_rng(3)
    for m, n in ((BIG + 7, BIG), (BIG, BIG + 5)):
        a = random(p, (2, m, n), rng)
        got, tau = run_factor(handle, KINDS[kind][1], p, "strided", a, m + 1, gap=3, tgap=2)
        check_factor(kind, p, a, got, tau)


def test_zero_columns_give_zero_tau(handle: Any) -> None:
    # LAPACK: H = I (tau = 0) where the column is already zero below the diagonal; beta = alpha then.
    for p in (D, Z):
        a = random(p, (1, 5, 4), np.random.default_rng(1))
        a[0, :, 1] = 0
        got, tau = run_factor(handle, "geqrf", p, "plain", a, 5)
        assert tau[0, 1] == 0 and got[0, 1, 1] == 0 and (got[0, 2:, 1] == 0).all()
    # An upper triangular matrix with a real diagonal is its own R: every tau is 0.
    a = np.triu(random(D, (1, 5, 4), np.random.default_rng(2))).astype(np.complex128)
    got, tau = run_factor(handle, "geqr2", Z, "strided", a, 6)
    assert not tau.any() and np.array_equal(got, a)


def test_complex_one_by_one_makes_beta_real(handle: Any) -> None:
    a = np.array([[[3 + 4j]]])
    got, tau = run_factor(handle, "geqr2", Z, "plain", a, 1)
    assert got[0, 0, 0] == -5 and abs(tau[0, 0] - (1.6 + 0.8j)) < 1e-15  # LAPACK's zlarfg
    got, tau = run_factor(handle, "geqrf", D, "plain", np.array([[[-3.0]]]), 1)
    assert got[0, 0, 0] == -3 and tau[0, 0] == 0


def test_graded_and_rank_deficient_matrices(handle: Any) -> None:
    rng = np.random.default_rng(8)
    n = 9
    graded = random(D, (1, n, n), rng) * np.logspace(0, -12, n)[None, None, :]
    low_rank = wide(random(D, (1, n, 3), rng)) @ wide(random(D, (1, 3, n), rng))
    hilbert = scipy.linalg.hilbert(n)[None]
    for a in (graded, low_rank, hilbert):  # ill-conditioned: the ratios, not the (sensitive) factors
        got, tau = run_factor(handle, "geqrf", D, "strided", a, n)
        check_factor("qr", D, a, got, tau, unique=False)


def test_large_batch_of_small_matrices(handle: Any) -> None:
    a = random(D, (2000, 8, 8), np.random.default_rng(2))
    got, tau = run_factor(handle, "geqrf", D, "strided", a, 8)
    ref = [lapack.dgeqrf(x)[:2] for x in a[::97]]
    assert rel(got[::97], np.stack([r[0] for r in ref])) < 1e-13
    assert rel(tau[::97], np.stack([r[1] for r in ref])) < 1e-13


# --- org2r/orgqr, orgl2/orglq ------------------------------------------------------------------------


@settings(max_examples=rt.examples(40))
@given(st.data())
def test_generate_q(handle: Any, data: st.DataObject) -> None:
    p = data.draw(st.sampled_from(SDCZ))
    kind = data.draw(st.sampled_from(("qr", "lq")))
    blocked = data.draw(st.booleans())
    big = data.draw(st.integers(0, 9)) == 0
    long = BIG if big else data.draw(small)
    short = data.draw(st.integers(0, long)) if not big else long - 3
    k = data.draw(st.integers(0, short))
    m, n = (long, short) if kind == "qr" else (short, long)
    lda = data.draw(rt.leading_dimensions(m, max_padding=2))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    a = random(p, (m, n), rng)
    out, tau = lapack_factor(kind, a) if m and n else (a, np.zeros(0, p.dtype))
    out = np.asarray(out, p.dtype)
    tau = np.asarray(tau[:k], p.dtype)
    routine = {"qr": ("org2r", "orgqr"), "lq": ("orgl2", "orglq")}[kind][blocked]
    A, T = Matrix(out[None], lda, "plain"), Tau(p, 1, max(k, 1), "plain", host=padded(tau))
    with closing(A, T):
        call(handle, routine, p, "plain", 1, m=m, n=n, k=k, A=A, ipiv=T)
        A.check()
        T.check(logical=True)
        q = A.get()[0]
    if m == 0 or n == 0:
        return
    # The first n columns (qr) / m rows (lq) of the product of the first k reflectors.
    trimmed = out.copy()
    if kind == "qr":
        trimmed[:, k:] = 0
        full, _ = householder("qr", np.hstack([trimmed, np.zeros((m, m - n), p.dtype)]),
                              np.concatenate([tau, np.zeros(m - k, p.dtype)]))
        ref = full[:, :n]
    else:
        trimmed[k:] = 0
        full, _ = householder("lq", np.vstack([trimmed, np.zeros((n - m, n), p.dtype)]),
                              np.concatenate([tau, np.zeros(n - k, p.dtype)]))
        ref = full[:m]
    assert rel(q, ref) < 30 * max(m, n) * p.eps
    assert rt.orthogonality_ratio(q, precision=p) < rt.RESIDUAL_THRESHOLD


# --- orm2r/ormqr, orml2/ormlq ------------------------------------------------------------------------


@settings(max_examples=rt.examples(50))
@given(st.data())
def test_apply_q(handle: Any, data: st.DataObject) -> None:
    p = data.draw(st.sampled_from(SDCZ))
    kind = data.draw(st.sampled_from(("qr", "lq")))
    routine = {"qr": ("orm2r", "ormqr"), "lq": ("orml2", "ormlq")}[kind][data.draw(st.booleans())]
    left = data.draw(st.booleans())
    trans = data.draw(st.sampled_from(("N", "C" if p.is_complex else "T")))
    big = data.draw(st.integers(0, 9)) == 0
    m, n = (BIG, 3) if big else (data.draw(small), data.draw(small))
    if big and not left:
        m, n = n, m
    nq = m if left else n
    k = data.draw(st.integers(0, nq))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    vrows, vcols = (nq, k) if kind == "qr" else (k, nq)
    v = random(p, (vrows, vcols), rng)
    out, tau = lapack_factor(kind, v) if k and nq else (v, np.zeros(k, p.dtype))
    out, tau = np.asarray(out, p.dtype), np.asarray(tau, p.dtype)
    c = random(p, (1, m, n), rng)
    lda = data.draw(rt.leading_dimensions(vrows, max_padding=2))
    ldc = data.draw(rt.leading_dimensions(m, max_padding=2))
    A, T, Cm = Matrix(out[None], lda, "plain"), Tau(p, 1, max(k, 1), "plain", host=padded(tau)), \
        Matrix(c, ldc, "plain")
    with closing(A, T, Cm):
        call(handle, routine, p, "plain", 1, side="L" if left else "R", trans=trans, m=m, n=n, k=k, A=A, ipiv=T,
             C=Cm)
        A.check(logical=True)
        T.check(logical=True)
        Cm.check()
        got = Cm.get()[0]
    if m == 0 or n == 0 or k == 0:
        assert same_bits(got, c[0])
        return
    q, _ = householder(kind, out, tau)
    op = q.conj().T if trans != "N" else q
    ref = op @ wide(c[0]) if left else wide(c[0]) @ op
    assert rel(got, ref) < 30 * max(m, n) * p.eps


# --- gels ----------------------------------------------------------------------------------------


def well_conditioned(p: Precision, batch: int, m: int, n: int, rng: np.random.Generator) -> np.ndarray:
    return random(p, (batch, m, n), rng) + (max(m, n) + 1) * np.eye(m, n, dtype=p.dtype)


def run_gels(handle: Any, p: Precision, flavour: str, trans: str, a: np.ndarray, b: np.ndarray, lda: int,
             ldb: int, gap: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    batch, m, n = a.shape
    A, B, info = Matrix(a, lda, flavour, gap), Matrix(b, ldb, flavour, gap), info_array(batch)
    with closing(A, B, info):
        call(handle, "gels", p, flavour, batch, trans=trans, m=m, n=n, nrhs=b.shape[2], A=A, B=B, info=info)
        A.check()
        B.check()
        info.check_untouched()
        return A.get(), B.get(), info.get()[:, 0]


@settings(max_examples=rt.examples(50))
@given(st.data())
def test_gels(handle: Any, data: st.DataObject) -> None:
    p, flavour, batch, gap, seed = data.draw(setup())
    trans = data.draw(st.sampled_from(("N", "C" if p.is_complex else "T")))
    big = data.draw(st.integers(0, 11)) == 0
    m, n = (BIG + 2, BIG) if big else (data.draw(small), data.draw(small))
    if big and data.draw(st.booleans()):
        m, n = n, m
    nrhs = data.draw(rt.sizes(max_value=3))
    rows = max(m, n)
    lda, ldb = data.draw(rt.leading_dimensions(m, max_padding=2)), data.draw(rt.leading_dimensions(rows,
                                                                                                  max_padding=2))
    rng = np.random.default_rng(seed)
    a = well_conditioned(p, batch, m, n, rng)
    singular = [e for e in range(batch) if min(m, n) and data.draw(st.booleans()) and data.draw(st.booleans())]
    zero_at = {}
    for e in singular:
        j = int(rng.integers(0, min(m, n)))
        if m >= n:
            a[e, :, j] = 0
        else:
            a[e, j, :] = 0
        zero_at[e] = j + 1
    b = random(p, (batch, rows, nrhs), rng)
    got_a, x, info = run_gels(handle, p, flavour, trans, a, b, lda, ldb, gap)
    if nrhs == 0:  # rocSOLVER: info = 0, nothing else done (A is not factored)
        assert same_bits(x, b) and same_bits(got_a, a) and not info.any()
        return
    assert np.array_equal(info, [zero_at.get(e, 0) for e in range(batch)])
    if m == 0 or n == 0:  # rocSOLVER: the solution of an empty system is zero
        assert not x.any()
        return
    op_rows = m if trans == "N" else n
    op_cols = n if trans == "N" else m
    q_applied_first = (trans == "N") == (m >= n)  # the solve starts with Q^H B (or Q B): kept if singular
    for e in range(batch):
        if info[e]:
            if q_applied_first:  # an orthogonal transformation of B
                norms, ref = np.linalg.norm(wide(x[e]), axis=0), np.linalg.norm(wide(b[e]), axis=0)
                assert np.allclose(norms, ref, rtol=30 * rows * p.eps)
            else:
                assert same_bits(x[e], b[e])
            continue
        opa = wide(a[e]) if trans == "N" else wide(a[e]).conj().T
        ref = np.linalg.lstsq(opa, wide(b[e, :op_rows]), rcond=None)[0]
        assert rel(x[e, :op_cols], ref) < 30 * rows * p.eps
        if op_rows <= op_cols:  # underdetermined: an exact solution
            assert rt.backward_error(opa, x[e, :op_cols], b[e, :op_rows], precision=p) < rt.RESIDUAL_THRESHOLD
    if batch and m and n:  # A holds its QR (m >= n) or LQ factorization
        kind = "qr" if m >= n else "lq"
        regular = [e for e in range(batch) if not info[e]]
        for e in regular[:1]:
            out, _ = lapack_factor(kind, a[e])
            assert rel(got_a[e], out) < 30 * rows * p.eps


def test_gels_quick_returns(handle: Any) -> None:
    b = random(D, (2, 4, 2), np.random.default_rng(0))
    a = random(D, (2, 3, 0), np.random.default_rng(1))
    _, x, info = run_gels(handle, D, "strided", "N", a, b, 3, 5)
    assert not x[:, :3].any() and not info.any()  # the max(m, n) rows of B are zeroed, not more
    assert same_bits(x[:, 3], b[:, 3])
    a = random(D, (2, 4, 3), np.random.default_rng(1))
    got, x, info = run_gels(handle, D, "batched", "N", a, b[:, :, :0], 4, 4)
    assert not info.any() and np.array_equal(got, a)  # nrhs = 0: A is not factored


# --- auxiliaries ---------------------------------------------------------------------------------


@pytest.mark.parametrize("p", (C, Z))
@pytest.mark.parametrize("incx", (1, 2, -3))
def test_lacgv(handle: Any, p: Precision, incx: int) -> None:
    x = random(p, (5,), np.random.default_rng(abs(incx)))
    X = rt.poisoned_device_vector(x, incx)
    try:
        fn("lacgv", p)(handle, 5, X.ptr, incx)
        X.check_untouched()
        assert np.array_equal(X.get(), x.conj())
    finally:
        X.close()


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("n", (1, 2, 6))
def test_larfg_matches_lapack(handle: Any, p: Precision, n: int) -> None:
    rng = np.random.default_rng(n)
    x = random(p, (max(n - 1, 1),), rng)
    alpha = random(p, (1,), rng)
    ref_alpha, ref_x, ref_tau = lapack.get_lapack_funcs("larfg", dtype=p.dtype)(n, alpha[0], x.copy())
    da, dt = rm.to_device(alpha.copy()), rm.to_device(np.zeros(1, p.dtype))
    X = rt.poisoned_device_vector(x, 2)
    try:
        fn("larfg", p)(handle, n, da, X.ptr if n > 1 else None, 2, dt)
        X.check_untouched(logical=n == 1)
        tol = 30 * n * p.eps
        assert abs(da.get()[0] - ref_alpha) <= tol * abs(ref_alpha) and da.get()[0].imag == 0
        assert abs(dt.get()[0] - ref_tau) <= tol * max(abs(ref_tau), 1)
        if n > 1:
            assert rel(X.get()[: n - 1], ref_x[: n - 1]) < tol
    finally:
        X.close()


def test_larfg_zero_vector_gives_identity(handle: Any) -> None:
    da, dt = rm.to_device(np.array([2.0])), rm.to_device(np.array([7.0]))
    x = rm.to_device(np.zeros(3))
    solver.dlarfg(handle, 4, da, x, 1, dt)
    assert da.get()[0] == 2 and dt.get()[0] == 0
    solver.dlarfg(handle, 0, None, None, 1, None)  # quick return: nothing needed
    # A negative real alpha too: tau is +0, as LAPACK's and rocSOLVER's (rocauxiliary_larfg.hpp
    # sets tau = 0), not -0 (it would show in signbit, 1 / tau and bitwise comparisons).
    for dtype, f in ((np.float64, solver.dlarfg), (np.complex128, solver.zlarfg)):
        for n in (1, 4):
            da, dt = rm.to_device(np.array([-2.0], dtype)), rm.to_device(np.array([7.0], dtype))
            f(handle, n, da, rm.to_device(np.zeros(3, dtype)), 1, dt)
            assert da.get()[0] == -2 and dt.get()[0] == 0
            assert not np.signbit(dt.get().view(np.float64)).any(), (dtype, n)
    a = np.asfortranarray([[-2.0, 1.0], [0.0, 3.0], [0.0, 4.0]])
    da, dt = rm.to_device(a), rm.to_device(np.full(2, 9.0))
    solver.dgeqrf(handle, 3, 2, da, 3, dt)
    ref = lapack.dgeqrf(a)[1]
    assert np.array_equal(dt.get(), ref) and not np.signbit(dt.get()[0]) and not np.signbit(ref[0])


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("side", "LR")
def test_larf(handle: Any, p: Precision, side: str) -> None:
    rng = np.random.default_rng(4)
    m, n, incx = 5, 4, -2
    length = m if side == "L" else n
    x, alpha, a = random(p, (length,), rng), random(p, (1,), rng), random(p, (1, m, n), rng)
    X, A = rt.poisoned_device_vector(x, incx), Matrix(a, m + 2, "plain")
    dal = rm.to_device(alpha)
    with closing(X, A):
        fn("larf", p)(handle, side, m, n, X.ptr, incx, dal, A.arg, m + 2)
        A.check()
        X.check_untouched(logical=True)
        h = reflector(x, alpha[0])
        ref = h @ wide(a[0]) if side == "L" else wide(a[0]) @ h
        assert rel(A.get()[0], ref) < 30 * m * p.eps
        fn("larf", p)(handle, side, m, n, X.ptr, incx, rm.to_device(np.zeros(1, p.dtype)), A.arg, m + 2)
        assert rel(A.get()[0], ref) < 30 * m * p.eps  # alpha = 0: H = I


def block_reflector(forward: bool, rowwise: bool, v: np.ndarray, tau: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(H, the vectors as columns with their unit entries and zeros) by LAPACK's definition."""
    vc = wide(v.conj().T if rowwise else v).copy()
    nq, k = vc.shape
    for i in range(k):
        p = i if forward else nq - k + i
        vc[p, i] = 1
        if forward:
            vc[:p, i] = 0
        else:
            vc[p + 1:, i] = 0
    hs = [reflector(vc[:, i], tau[i]) for i in range(k)]
    h = np.eye(nq, dtype=np.complex128)
    for x in (hs if forward else hs[::-1]):
        h = h @ x
    return h, vc


@pytest.mark.parametrize("p", SDCZ)
@pytest.mark.parametrize("direct", ("forward_direction", "backward_direction"))
@pytest.mark.parametrize("storev", ("column_wise", "row_wise"))
def test_larft_and_larfb(handle: Any, p: Precision, direct: str, storev: str) -> None:
    rng = np.random.default_rng(7)
    n, k = 7, 3
    forward, rowwise = direct == "forward_direction", storev == "row_wise"
    v = random(p, (1, k, n) if rowwise else (1, n, k), rng)
    tau = random(p, (k,), rng)
    tau[1] = 0  # a zero scalar: an identity reflector, a zero column of T
    V, T = Matrix(v, v.shape[1] + 1, "plain"), Matrix(np.zeros((1, k, k), p.dtype), k + 2, "plain")
    T.mats[0].poison()
    dtau = rm.to_device(tau)
    with closing(V, T):
        fn("larft", p)(handle, getattr(solver.Direct, direct), getattr(solver.Storev, storev), n, k, V.arg, V.ld,
                       dtau, T.arg, T.ld)
        V.check(logical=True)
        t = T.get()[0]
        tri = np.triu(t) if forward else np.tril(t)
        unused = np.tril_indices(k, -1) if forward else np.triu_indices(k, 1)
        assert not t[unused].any()  # rocSOLVER's larft zeroes the triangle the factor does not use
        h, vc = block_reflector(forward, rowwise, v[0], tau)
        assert rel(np.eye(n) - vc @ tri @ vc.conj().T, h) < 30 * n * p.eps
        T.mats[0].set(tri.astype(p.dtype))
        for side in "LR":
            for trans in ("N", "C" if p.is_complex else "T"):
                a = random(p, (1, n, 4) if side == "L" else (1, 4, n), rng)
                A = Matrix(a, a.shape[1] + 1, "plain")
                with closing(A):
                    fn("larfb", p)(handle, side, trans, getattr(solver.Direct, direct),
                                   getattr(solver.Storev, storev), a.shape[1], a.shape[2], k, V.arg, V.ld, T.arg,
                                   T.ld, A.arg, A.ld)
                    A.check()
                    op = h.conj().T if trans != "N" else h
                    ref = op @ wide(a[0]) if side == "L" else wide(a[0]) @ op
                    assert rel(A.get()[0], ref) < 30 * n * p.eps


# --- argument checking -------------------------------------------------------------------------------

SIZE, VALUE, POINTER = RocblasInvalidSizeError, RocblasInvalidValueError, RocblasInvalidPointerError


@pytest.fixture
def bad(handle: Any) -> Iterator[Callable[..., None]]:
    """Call a routine with valid 4x4 arguments but the given changes; expect the exception and the
    argument it names (and its position); nothing may change."""
    rng = np.random.default_rng(0)
    bufs = {p: {name: rt.poisoned_device_matrix(random(p, (4, 4), rng), 4) for name in ("A", "B", "C", "V", "T")}
            for p in (D, Z)}
    info = rt.poisoned_device_vector(np.zeros(1, np.int32))

    def check(routine: str, flavour: str, error: type[Exception], arg: str, p: Precision = D, **changes: Any) -> None:
        mats = bufs[p]
        base: dict[str, Any] = dict(
            trans="N", side="L", direct=solver.Direct.forward_direction, storev=solver.Storev.column_wise, m=4, n=4,
            k=2, nrhs=2, lda=4, ldb=4, ldc=4, ldv=4, ldt=4, incx=1, strideA=16, strideB=16, strideP=4,
            batch_count=1, info=info.ptr, ipiv=mats["T"].ptr, tau=mats["T"].ptr, alpha=mats["T"].ptr,
            x=mats["V"].ptr)
        for name, mat in mats.items():
            base[name] = mat.ptr
        f = fn(routine, p, flavour)
        params = list(inspect.signature(f).parameters)[1:]
        args = {name: changes.get(name, base[name]) for name in params}
        with pytest.raises(error) as err:
            f(handle, **args)
        assert err.value.arg == arg, f"{routine}: expected {arg!r} to be named, got {err.value}"
        assert err.value.index == params.index(arg) + 2
        for buf in (*mats.values(), info):
            buf.check_untouched(logical=True)

    yield check
    for mats in bufs.values():
        for buf in mats.values():
            buf.close()
    info.close()


BAD_ARGUMENTS = [
    # factorizations: m, n, lda, (batch_count); then A, ipiv
    ("geqrf", SIZE, "m", dict(m=-1)),
    ("geqrf", SIZE, "n", dict(n=-1, lda=0, A=None)),
    ("geqr2", SIZE, "lda", dict(lda=3)),
    ("gelqf", SIZE, "lda", dict(m=5, n=0, A=None)),
    ("geqlf", POINTER, "A", dict(A=None, ipiv=None)),
    ("gerqf", POINTER, "ipiv", dict(ipiv=None)),
    ("gerq2", POINTER, "ipiv", dict(ipiv=0)),
    # org2r: m, n (n > m), k (k > n), lda; then ipiv before A
    ("orgqr", SIZE, "n", dict(n=5)),
    ("org2r", SIZE, "k", dict(k=5)),
    ("orgqr", SIZE, "k", dict(k=-1)),
    ("orgqr", SIZE, "lda", dict(m=5, n=4, lda=4)),
    ("orgqr", POINTER, "ipiv", dict(ipiv=None, A=None)),
    ("orgqr", POINTER, "A", dict(A=None)),
    ("orgqr", POINTER, "A", dict(A=None, k=0, ipiv=None)),
    # orgl2: n < m is the error
    ("orglq", SIZE, "n", dict(m=5, n=4, lda=5)),
    ("orgl2", SIZE, "k", dict(m=3, lda=3, k=4)),
    # orm2r: side, trans (and T for complex, C for real), sizes, then C, ipiv, A
    ("ormqr", VALUE, "side", dict(side="X", trans="X")),
    ("ormqr", VALUE, "side", dict(side=solver.Side.both)),
    ("ormqr", VALUE, "trans", dict(trans="C")),
    ("ormqr", VALUE, "trans", dict(trans="T"), Z),
    ("orm2r", SIZE, "ldc", dict(ldc=3, k=5)),
    ("ormqr", SIZE, "k", dict(k=5, lda=3)),
    ("ormqr", SIZE, "lda", dict(lda=3)),
    ("ormqr", SIZE, "k", dict(side="R", n=1, lda=4)),
    ("ormqr", POINTER, "C", dict(C=None, ipiv=None, A=None)),
    ("ormqr", POINTER, "ipiv", dict(ipiv=None, A=None)),
    ("ormqr", POINTER, "A", dict(A=None)),
    ("orml2", SIZE, "lda", dict(lda=1)),
    ("ormlq", SIZE, "k", dict(k=5, lda=5)),
    ("ormlq", POINTER, "C", dict(C=None)),
    # gels: trans, sizes (ldb >= max(m, n)), then A, B, info
    ("gels", VALUE, "trans", dict(trans="C", m=-1)),
    ("gels", VALUE, "trans", dict(trans="T"), Z),
    ("gels", SIZE, "nrhs", dict(nrhs=-1)),
    ("gels", SIZE, "ldb", dict(m=3, lda=3, ldb=3)),
    ("gels", POINTER, "A", dict(A=None, B=None)),
    ("gels", POINTER, "B", dict(B=None)),
    ("gels", POINTER, "info", dict(info=None)),
    ("gels", POINTER, "info", dict(m=0, n=0, nrhs=0, A=None, B=None, info=None)),
    # auxiliaries
    ("lacgv", SIZE, "n", dict(n=-1), Z),
    ("lacgv", SIZE, "incx", dict(incx=0), Z),
    ("lacgv", POINTER, "x", dict(x=None), Z),
    ("larfg", SIZE, "incx", dict(incx=-1)),
    ("larfg", POINTER, "x", dict(x=None, alpha=None)),
    ("larfg", POINTER, "alpha", dict(n=1, x=None, alpha=None)),
    ("larfg", POINTER, "tau", dict(tau=None)),
    ("larf", VALUE, "side", dict(side="X", m=-1)),
    ("larf", SIZE, "n", dict(n=-1, m=-1)),
    ("larf", SIZE, "incx", dict(incx=0)),
    ("larf", POINTER, "A", dict(A=None, alpha=None)),
    ("larf", POINTER, "alpha", dict(alpha=None, x=None)),
    ("larft", VALUE, "storev", dict(storev=999)),
    ("larft", SIZE, "k", dict(k=0)),
    ("larft", SIZE, "ldt", dict(ldt=1)),
    ("larft", SIZE, "ldv", dict(ldv=3)),
    ("larft", SIZE, "ldv", dict(storev=solver.Storev.row_wise, ldv=1)),
    ("larft", POINTER, "tau", dict(n=0, V=None, tau=None)),
    ("larfb", VALUE, "trans", dict(trans=999)),
    ("larfb", VALUE, "direct", dict(direct=0)),
    ("larfb", SIZE, "k", dict(k=0, lda=1)),
    ("larfb", SIZE, "lda", dict(lda=3, ldt=1)),
    ("larfb", SIZE, "ldv", dict(side="R", n=5, m=3, lda=3, ldv=4)),
    ("larfb", POINTER, "V", dict(V=None, A=None)),
    ("larfb", POINTER, "T", dict(T=None)),
]


@pytest.mark.parametrize("case", BAD_ARGUMENTS, ids=[f"{c[0]}-{c[2]}-{i}" for i, c in enumerate(BAD_ARGUMENTS)])
def test_bad_argument(bad: Callable[..., None], case: tuple[Any, ...]) -> None:
    routine, error, arg, changes, *p = case
    bad(routine, "plain", error, arg, *p, **changes)


@pytest.mark.parametrize("flavour", ("strided", "batched"))
def test_batched_bad_arguments(bad: Callable[..., None], flavour: str) -> None:
    for routine in ("geqr2", "geqrf", "gelq2", "gelqf", "geql2", "geqlf", "gerq2", "gerqf", "gels"):
        bad(routine, flavour, SIZE, "batch_count", batch_count=-1, A=None)
        bad(routine, flavour, POINTER, "A", A=None, batch_count=0)
    bad("gels", flavour, POINTER, "info", info=None)


def test_invalid_handle() -> None:
    with pytest.raises(RocblasInvalidHandleError):
        solver.dgeqrf(None, 4, 4, 0, 4, 0)
    with pytest.raises(RocblasInvalidHandleError):
        solver.zlacgv(object(), 1, 0, 1)


def test_signatures_follow_rocsolver() -> None:
    def names(f: Callable[..., Any]) -> list[str]:
        return list(inspect.signature(f).parameters)

    assert names(solver.dgeqrf_batched) == ["handle", "m", "n", "A", "lda", "ipiv", "strideP", "batch_count"]
    assert names(solver.zgerqf_strided_batched) == ["handle", "m", "n", "A", "lda", "strideA", "ipiv", "strideP",
                                                    "batch_count"]
    assert names(solver.cungqr) == ["handle", "m", "n", "k", "A", "lda", "ipiv"]
    assert names(solver.sormlq) == ["handle", "side", "trans", "m", "n", "k", "A", "lda", "ipiv", "C", "ldc"]
    assert names(solver.dgels_strided_batched) == ["handle", "trans", "m", "n", "nrhs", "A", "lda", "strideA", "B",
                                                   "ldb", "strideB", "info", "batch_count"]
    assert names(solver.zlarfb) == ["handle", "side", "trans", "direct", "storev", "m", "n", "k", "V", "ldv", "T",
                                    "ldt", "A", "lda"]
    assert names(solver.slarfg) == ["handle", "n", "alpha", "x", "incx", "tau"]
    assert not hasattr(solver, "dorgqr_batched") and not hasattr(solver, "sungqr") and not hasattr(solver, "slacgv")


def test_size_query_reports_the_workspace(handle: Any) -> None:
    blas.start_device_memory_size_query(handle)
    try:
        assert solver.dgeqrf(handle, 64, 64, None, 64, None) is RocblasStatus.size_increased
        assert solver.dgeqrf(handle, 0, 64, None, 1, None) is RocblasStatus.size_unchanged
        with pytest.raises(RocblasInvalidSizeError):
            solver.dgels(handle, "N", 4, 4, 1, None, 4, None, 3, None)
    finally:
        size = blas.stop_device_memory_size_query(handle)
    assert size == kq.factor_workspace(64, 64, 1, 8)


@pytest.mark.slow
@pytest.mark.parametrize("p", (S, D, Z))
def test_one_large_matrix(handle: Any, p: Precision) -> None:
    n = 1024
    a = random(p, (1, n, n), np.random.default_rng(1))
    got, tau = run_factor(handle, "geqrf", p, "plain", a, n)
    A, T = Matrix(got, n, "plain"), Tau(p, 1, n, "plain", host=tau)
    with closing(A, T):
        call(handle, "orgqr", p, "plain", 1, m=n, n=n, k=n, A=A, ipiv=T)
        q = A.get()[0]
    assert rt.orthogonality_ratio(q, precision=p) < rt.RESIDUAL_THRESHOLD
    assert rt.qr_residual_ratio(a[0], q, np.triu(got[0]), precision=p) < rt.RESIDUAL_THRESHOLD
