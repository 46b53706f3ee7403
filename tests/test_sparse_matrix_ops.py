"""The array layer's arithmetic (rocmath.sparse.csr_matrix / csc_matrix / coo_matrix, after cupyx's
spmatrix): sparse products, sums, differences, scaling, ``x @ A`` and ``toarray``, against scipy.sparse."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sparse_level2 import random_csr, vec

import rocmath as rm
import rocmath.sparse as rs
from rocmath.precision import SDCZ, Precision
from rocmath.testing import assert_close, examples

FORMATS = ("csr", "csc", "coo")


def device(a: sp.csr_matrix, fmt: str, itype: type) -> object:
    """``a`` on the device in ``fmt``, its indices of ``itype``."""
    if fmt == "coo":
        c = a.tocoo()
        return rs.coo_matrix((c.data, (c.row.astype(itype), c.col.astype(itype))), c.shape)
    h = a.asformat(fmt)
    cls = rs.csr_matrix if fmt == "csr" else rs.csc_matrix
    return cls((h.data, h.indices.astype(itype), h.indptr.astype(itype)), h.shape)


def dense(x: object) -> np.ndarray:
    """A device sparse matrix's values, dense on the host (through scipy: independent of toarray)."""
    return x.get().toarray()  # type: ignore[attr-defined]


def arrays_of(x: object) -> list[np.ndarray]:
    names = ("data", "row", "col") if x.format == "coo" else ("data", "indices", "indptr")  # type: ignore[attr-defined]
    return [getattr(x, name).get() for name in names]


@st.composite
def operand_pairs(draw):
    p: Precision = draw(st.sampled_from(SDCZ))
    m, k, n = (draw(st.sampled_from([0, 1, 3, 8, 13])) for _ in range(3))
    return dict(p=p, m=m, k=k, n=n, density=draw(st.sampled_from([0.0, 0.2, 0.6, 1.0])),
                fmts=(draw(st.sampled_from(FORMATS)), draw(st.sampled_from(FORMATS))),
                itypes=(draw(st.sampled_from([np.int32, np.int64])), draw(st.sampled_from([np.int32, np.int64]))),
                scalar=draw(st.sampled_from([2.5, -1, 0.0, 1.5 - 0.5j])), seed=draw(st.integers(0, 2**16)))


@settings(max_examples=examples(40))
@given(operand_pairs())
def test_products_sums_and_scaling_match_scipy(q):
    p, m, k, n = q["p"], q["m"], q["k"], q["n"]
    rng = np.random.default_rng(q["seed"])
    a, b, c = (random_csr(rng, m, k, q["density"], p.dtype), random_csr(rng, k, n, q["density"], p.dtype),
               random_csr(rng, m, k, q["density"] / 2, p.dtype))
    fa, fb = q["fmts"]
    ia, ib = q["itypes"]
    A, B, C = device(a, fa, ia), device(b, fb, ib), device(c, fb, ib)
    before = [arrays_of(x) for x in (A, B, C)]

    prod = A @ B
    assert isinstance(prod, rs.csr_matrix) and prod.shape == (m, n) and prod.dtype == p.dtype
    assert prod.indices.dtype == np.result_type(ia, ib)
    terms = abs(a) @ abs(b)  # the size of the terms each entry sums
    assert_close(dense(prod), (a @ b).toarray(), p, "reduction", max(1, k),
                 scale=float(terms.max()) if terms.nnz else 1.0)
    assert np.array_equal(dense(A * B), dense(prod))  # spmatrix's * is the product

    # A sum or a difference rounds each entry once, as scipy's: exactly its values.
    assert np.array_equal(dense(A + C), (a + c).toarray())
    assert np.array_equal(dense(A - C), (a - c).toarray())
    s = q["scalar"]
    if not isinstance(s, complex):
        assert np.array_equal(dense(s * A), (s * a).toarray())
        assert np.array_equal(dense(A * s), (a * s).toarray())
    elif p.dtype.kind == "c":  # a complex product: its real part may be fused (one rounding fewer than scipy's)
        assert_close(dense(s * A), (s * a).toarray(), p, "elementwise", 2)
        assert np.array_equal(dense(A * s), dense(s * A))
    assert np.array_equal(dense(-A), (-a).toarray())

    # toarray in both orders; a COO matrix's duplicates add up, as scipy's.
    for order in ("C", "F"):
        d = A.toarray(order)
        assert d.shape == (m, k) and (d.f_contiguous if order == "F" else d.c_contiguous)
        assert np.array_equal(d.get(), a.toarray())

    # x @ A for a vector and a matrix on the left.
    if m:
        x = vec(rng, m, p.dtype)
        X = np.stack([vec(rng, m, p.dtype) for _ in range(3)])
        assert_close((rm.to_device(x) @ A).get(), x @ a, p, "reduction", m,
                     scale=float((np.abs(x) @ abs(a)).max()) if k and a.nnz else 1.0)
        got = (rm.to_device(X) @ A).get()
        assert got.shape == (3, k)
        assert_close(got, X @ a, p, "reduction", m, scale=float((np.abs(X) @ abs(a)).max()) if k and a.nnz else 1.0)

    # The operands are left as they were.
    for x, arrays in zip((A, B, C), before, strict=True):
        for old, new in zip(arrays, arrays_of(x), strict=True):
            assert np.array_equal(old, new)


def test_a_sum_keeps_the_union_of_the_structures():
    # rocSPARSE's (and cupyx's) sums store every position either operand has: a cancelled entry
    # stays as a stored zero (scipy drops it), and the columns come out sorted.
    a = sp.csr_matrix(np.array([[1.0, 0, 2], [0, 3, 0]]))
    b = sp.csr_matrix(np.array([[-1.0, 4, 0], [0, 0, 5]]))
    s = rs.csr_matrix(a) + rs.csr_matrix(b)
    assert s.nnz == 5
    host = s.get()
    assert np.array_equal(host.indptr, [0, 3, 5]) and np.array_equal(host.indices, [0, 1, 2, 1, 2])
    assert np.array_equal(host.data, [0.0, 4, 2, 3, 5])
    zero = rs.csr_matrix(a) - rs.csr_matrix(a)
    assert zero.nnz == a.nnz and not np.any(zero.data.get())


def test_result_types_follow_numpy():
    a32 = rs.csr_matrix(sp.csr_matrix(np.eye(3, dtype=np.float32)))
    a64 = rs.csr_matrix(sp.csr_matrix(np.eye(3)))
    assert (a32 * 2.0).dtype == np.float32  # a Python scalar does not widen (NEP 50)
    assert (a32 * np.float64(2)).dtype == np.float64
    assert (a32 * 1j).dtype == np.complex64
    assert (a32 + a64).dtype == np.float64 and (a32 @ a64).dtype == np.float64
    scaled = np.float32(3) * a32  # numpy defers to the matrix's operators
    assert isinstance(scaled, rs.csr_matrix) and np.array_equal(scaled.get().toarray(), 3 * np.eye(3))
    ints = rs.csr_matrix(sp.csr_matrix(np.eye(2, dtype=np.int64)))
    assert ints.dtype == np.float64 and (ints * 2).dtype == np.float64


@pytest.mark.parametrize("fmt", FORMATS)
def test_mismatched_operands_are_refused(fmt):
    a = device(sp.csr_matrix(np.ones((2, 3))), fmt, np.int32)
    b = device(sp.csr_matrix(np.ones((2, 3))), fmt, np.int32)
    with pytest.raises(ValueError, match="dimension mismatch"):
        a @ b
    with pytest.raises(ValueError, match="inconsistent shapes"):
        a + b.T
    with pytest.raises(ValueError, match="dimension mismatch"):
        rm.to_device(np.ones(3)) @ a
    with pytest.raises(TypeError):
        a + rm.to_device(np.ones((2, 3)))
    with pytest.raises(TypeError):
        a - 1.0
    with pytest.raises(ValueError, match="order"):
        a.toarray("K")


def test_products_of_larger_matrices_chain():
    # (A @ B) @ x against scipy on a matrix with rows of many entries (the spgemm kernels' wide paths).
    rng = np.random.default_rng(11)
    a = random_csr(rng, 300, 200, 0.05, np.float64)
    b = random_csr(rng, 200, 250, 0.05, np.float64)
    x = rng.standard_normal(250)
    A, B = rs.csr_matrix(a), rs.csr_matrix(b)
    got = ((A @ B) @ rm.to_device(x)).get()
    assert_close(got, (a @ b) @ x, Precision.of(np.float64), "reduction", 200 * 250,
                 scale=float((abs(a) @ abs(b) @ np.abs(x)).max()))
    assert np.array_equal(((A + A) * 0.5).get().toarray(), a.toarray())
