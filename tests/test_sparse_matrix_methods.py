"""The array layer's other spmatrix methods (rocmath.sparse.csr_matrix / csc_matrix / coo_matrix, after
cupyx's): elementwise maps (multiply, /, abs, power, real, imag), eliminate_zeros, count_nonzero,
diagonal, sum and mean, the elementwise product of two matrices, and the constructors eye, identity,
diags and random, against scipy.sparse: values, formats, dtypes, shapes, canonical flags, and the
operands left untouched."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sparse_level2 import magnitudes

import rocmath as rm
import rocmath.sparse as rs
from rocmath.precision import SDCZ, Precision
from rocmath.testing import assert_close, examples, scale_of

FORMATS = ("csr", "csc", "coo")
CLASSES = {"csr": rs.csr_matrix, "csc": rs.csc_matrix, "coo": rs.coo_matrix}


@dataclass(frozen=True)
class Case:
    p: Precision
    shape: tuple[int, int]
    nnz: int
    fmt: str
    itype: type
    canonical: bool  # sorted, without duplicates (else duplicates and unsorted indices)
    seed: int


@st.composite
def cases(draw, precisions=SDCZ):
    m, n = draw(st.sampled_from([0, 1, 4, 9])), draw(st.sampled_from([0, 1, 3, 8]))
    return Case(p=draw(st.sampled_from(precisions)), shape=(m, n),
                nnz=0 if m * n == 0 else draw(st.sampled_from([0, 1, 6, 40])), fmt=draw(st.sampled_from(FORMATS)),
                itype=draw(st.sampled_from([np.int32, np.int64])), canonical=draw(st.booleans()),
                seed=draw(st.integers(0, 2**16)))


def integer_values(rng: np.random.Generator, count: int, dtype: np.dtype) -> np.ndarray:
    """Small integers, zeros among them (sums and products of them are exact in every precision)."""
    v = rng.integers(-3, 4, count).astype(dtype)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.integers(-3, 4, count).astype(dtype)
    return v


def build(case: Case) -> tuple[object, sp.spmatrix]:
    """The case's device matrix and a scipy matrix of the same format and storage order.  Not
    canonical: duplicates, and rows (columns) or entries in no order; every other row is empty."""
    rng = np.random.default_rng(case.seed)
    m, n = case.shape
    if case.canonical:  # distinct positions in row-major order (grouped by column: sorted rows)
        flat = np.sort(rng.choice(m * n, min(case.nnz, m * n), replace=False)) if m * n else np.zeros(0, np.int64)
        r, c = flat // max(n, 1), flat % max(n, 1)
    else:
        r, c = rng.integers(0, max(m // 2, 1), case.nnz) * 2, rng.integers(0, max(n, 1), case.nnz)
        r = np.minimum(r, max(m - 1, 0))
    r, c = r.astype(case.itype), c.astype(case.itype)
    v = integer_values(rng, len(r), case.p.dtype)
    if case.fmt == "coo":
        d = rs.coo_matrix((v, (r, c)), case.shape)
        d.has_canonical_format = case.canonical and case.fmt == "coo"  # (sorted by row, then column)
        return d, sp.coo_matrix((v, (r, c)), shape=case.shape)
    major, minor = (r, c) if case.fmt == "csr" else (c, r)
    order = np.argsort(major, kind="stable")
    ptr = np.zeros(case.shape[0 if case.fmt == "csr" else 1] + 1, case.itype)
    np.cumsum(np.bincount(major, minlength=len(ptr) - 1), out=ptr[1:])
    h = (sp.csr_matrix if case.fmt == "csr" else sp.csc_matrix)((v[order], minor[order], ptr), shape=case.shape)
    assert h.nnz == len(v)
    return CLASSES[case.fmt]((v[order], minor[order], ptr), case.shape), h


def arrays_of(x: object) -> list[np.ndarray]:
    names = ("data", "row", "col") if x.format == "coo" else ("data", "indices", "indptr")  # type: ignore[attr-defined]
    return [getattr(x, name).get() for name in names]


def untouched(x: object, before: list[np.ndarray]) -> bool:
    return all(np.array_equal(a, b, equal_nan=True) for a, b in zip(arrays_of(x), before, strict=True))


def check(got: object, ref: sp.spmatrix, fmt: str, exact: bool, n: int = 1, nnz: int | None = None,
          kind: str = "elementwise", terms: np.ndarray | None = None) -> None:
    """``got`` is a matrix of ``fmt`` with ``ref``'s dtype, shape, stored count (or ``nnz``) and
    values (exactly, or to the tolerance of ``kind`` and ``n``; relative to ``terms``, the magnitudes
    summed at each position, when given: duplicates of opposite signs cancel)."""
    assert got.format == fmt and got.dtype == ref.dtype and got.shape == ref.shape  # type: ignore[attr-defined]
    assert got.nnz == (ref.nnz if nnz is None else nnz)  # type: ignore[attr-defined]
    dense, want = got.get().toarray(), ref.toarray()  # type: ignore[attr-defined]
    if exact:
        assert np.array_equal(dense, want, equal_nan=True)
    else:
        p = Precision.of(ref.dtype)
        assert_close(dense, want, p, kind, n, scale=None if terms is None else scale_of(p, terms))


def scipy_ref(fn, h: sp.spmatrix) -> sp.spmatrix:
    """``fn`` of a copy of ``h`` (scipy sums duplicates in place), numpy's warnings silenced."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        return fn(h.copy())


SCALARS = [2, -3, 0.5, 3.0, np.float32(0.25), np.float64(-1.5), 1.5 - 0.5j]


@settings(max_examples=examples(40))
@given(cases(), st.sampled_from(SCALARS))
def test_elementwise_maps_keep_format_and_structure_as_scipy(case, s):
    d, h = build(case)
    before = arrays_of(d)
    real_scalar = not isinstance(s, complex)
    # A scaling rounds each value once (a complex one may fuse a product: one rounding apart).
    check(d.multiply(s), scipy_ref(lambda x: x.multiply(s), h), case.fmt, exact=real_scalar,
          terms=abs(s) * magnitudes(h).toarray())
    # Division: real values in float64, times the reciprocal, as scipy's; the structure stays (scipy's
    # conversion of float32 values to float64 sums duplicates first, its astype's way: the sums of
    # the scaled duplicates are then a rounding or two apart).
    summed_first = case.p.dtype == np.float32 and not case.canonical
    check(d / s, scipy_ref(lambda x: x / s, h), case.fmt, exact=real_scalar and not summed_first, nnz=d.nnz,
          terms=magnitudes(h).toarray() / abs(s))
    # abs and power sum duplicates first (scipy's); the modulus of a complex value may differ by an ulp.
    absolute = abs(d)
    check(absolute, scipy_ref(abs, h), case.fmt, exact=not case.p.is_complex)
    assert absolute.has_canonical_format and d.power(3).has_canonical_format
    assert d.imag.has_canonical_format == d.multiply(s).has_canonical_format == d.has_canonical_format
    check(d.real, scipy_ref(lambda x: x.real, h), case.fmt, exact=True)
    check(d.imag, scipy_ref(lambda x: x.imag, h), case.fmt, exact=True)
    for power in (1, 2, 3, -1, -2, 0.5, 2.5):
        # Exact: complex integer powers (products of Gaussian integers) and squares.  Elsewhere libm's
        # pow (numpy's may be another implementation), numpy's complex division, or numba's complex
        # pow through the logarithm (numpy's cpow is another: a few roundings apart).
        exact = power in (1, 2) or (case.p.is_complex and power > 0 and power == int(power))
        check(d.power(power), scipy_ref(lambda x, e=power: x.power(e), h), case.fmt, exact=exact, n=16,
              kind="reduction")
    check(d.power(2, dtype=np.complex64), scipy_ref(lambda x: x.power(2, dtype=np.complex64), h), case.fmt,
          exact=True)
    assert untouched(d, before)


@settings(max_examples=examples(40))
@given(cases())
def test_structure_count_nonzero_diagonal_and_eliminate_zeros_as_scipy(case):
    d, h = build(case)
    before = arrays_of(d)
    assert d.count_nonzero() == scipy_ref(lambda x: x.count_nonzero(), h)
    m, n = case.shape
    for k in range(-m - 1, n + 2):
        got = d.diagonal(k)
        want = h.diagonal(k)
        assert isinstance(got, rm.DeviceArray) and got.dtype == case.p.dtype and got.shape == want.shape
        assert np.array_equal(got.get(), want)  # integer values: the duplicates' sums are exact
    assert untouched(d, before)

    # In place, in storage order, duplicates kept: the very arrays of scipy's.
    was_canonical = d.has_canonical_format
    d.eliminate_zeros()
    ref = h.copy()
    ref.eliminate_zeros()
    got = arrays_of(d)
    want = [ref.data, ref.row, ref.col] if case.fmt == "coo" else [ref.data, ref.indices, ref.indptr]
    assert all(np.array_equal(g, w) for g, w in zip(got, want, strict=True))
    assert d.data.dtype == case.p.dtype and all(a.dtype == case.itype for a in got[1:])
    if case.fmt == "coo":
        assert d.has_canonical_format == was_canonical
    else:  # a fresh scipy matrix of the result works its flag out from the arrays
        fresh = type(ref)((ref.data, ref.indices, ref.indptr), shape=ref.shape)
        assert d.has_canonical_format == bool(fresh.has_canonical_format)
    assert d.count_nonzero() == d.nnz or not case.canonical


@settings(max_examples=examples(40))
@given(cases())
def test_sum_and_mean_by_axis_as_spmatrix(case):
    d, h = build(case)
    before = arrays_of(d)
    m, n = case.shape
    total = d.sum()
    assert type(total) is case.p.dtype.type and total == h.sum()  # integer values: exact in any order
    for axis in (0, 1, -2, -1):
        got, want = d.sum(axis=axis), np.asarray(h.sum(axis=axis))
        # spmatrix's shapes: (1, n) for the columns' sums, (m, 1) for the rows'.
        assert isinstance(got, rm.DeviceArray) and got.shape == want.shape == ((1, n) if axis % 2 == 0 else (m, 1))
        assert got.dtype == case.p.dtype and np.array_equal(got.get(), want)
    assert d.sum(axis=1, dtype=np.complex128).dtype == np.complex128
    # The mean: the sum times 1 / N (scipy scales the values first: a rounding or two apart).
    scale = float(np.abs(h.toarray()).sum()) or 1.0
    if m * n:
        mean = d.mean()
        assert type(mean) is case.p.dtype.type
        assert_close(np.array([mean]), np.array([h.mean()]), case.p, "reduction", 4,
                     scale=scale / (m * n))
    else:
        with pytest.raises(ZeroDivisionError):
            d.mean()
    for axis, size in ((0, m), (1, n)):
        if size:
            got, want = d.mean(axis=axis), np.asarray(h.mean(axis=axis))
            assert got.shape == want.shape and got.dtype == case.p.dtype
            assert_close(got.get(), want, case.p, "reduction", 4, scale=scale / size)
        else:
            with pytest.raises(ZeroDivisionError):
                d.mean(axis=axis)
    assert untouched(d, before)


@settings(max_examples=examples(40))
@given(cases(), cases())
def test_elementwise_product_of_two_matrices_is_scipys_as_canonical_csr(c1, c2):
    # The second operand takes the first's shape: its other draws (format, precision, indices) stay.
    c2 = Case(c2.p, c1.shape, c2.nnz if c1.shape[0] * c1.shape[1] else 0, c2.fmt, c2.itype, c2.canonical, c2.seed)
    (a, ha), (b, hb) = build(c1), build(c2)
    before = [arrays_of(a), arrays_of(b)]
    got = a.multiply(b)
    ref = sp.csr_matrix(ha).multiply(sp.csr_matrix(hb)).tocsr()
    ref.sum_duplicates()
    assert isinstance(got, rs.csr_matrix) and got.has_canonical_format and got.shape == c1.shape
    assert got.dtype == np.result_type(c1.p.dtype, c2.p.dtype) == ref.dtype
    assert got.indices.dtype == got.indptr.dtype == np.result_type(c1.itype, c2.itype)
    # The positions both store whose product is nonzero, sorted; integer values: exact products.
    for g, w in zip(arrays_of(got), (ref.data, ref.indices, ref.indptr), strict=True):
        assert np.array_equal(g, w)
    assert untouched(a, before[0]) and untouched(b, before[1])


@st.composite
def diagonal_inputs(draw):
    m, n = draw(st.sampled_from([0, 1, 3, 7])), draw(st.sampled_from([0, 1, 4, 6]))
    offsets = draw(st.lists(st.integers(-m, n), min_size=1, max_size=4, unique=True))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    dtype = draw(st.sampled_from([np.int64, np.float32, np.float64, np.complex64, np.complex128]))
    diagonals = []
    for k in offsets:
        length = max(0, min(m + k, n - k, m, n))
        size = draw(st.sampled_from([1, length, length + 2]))  # one value repeated, or (more than) enough
        values = integer_values(rng, size, np.dtype(np.float64)).astype(dtype)
        diagonals.append(values)
    return dict(shape=(m, n), offsets=offsets, diagonals=diagonals, format=draw(st.sampled_from([None, *FORMATS])),
                device=draw(st.booleans()))


@settings(max_examples=examples(40))
@given(diagonal_inputs())
def test_diags_builds_scipys_matrix_on_the_device(q):
    m, n = q["shape"]
    want_dtype = np.dtype(np.common_type(*q["diagonals"]))
    ref = sp.diags(q["diagonals"], q["offsets"], shape=(m, n), format="csr", dtype=want_dtype)
    args = [rm.to_device(x) for x in q["diagonals"]] if q["device"] else q["diagonals"]
    got = rs.diags(args, q["offsets"], shape=(m, n), format=q["format"])
    fmt = q["format"] or "csr"  # scipy's default is DIA, not on the device
    assert got.format == fmt and got.shape == (m, n) and got.dtype == want_dtype
    assert got.has_canonical_format and got.nnz == ref.nnz  # zeros left out, as scipy's
    assert np.array_equal(got.get().toarray(), ref.toarray())
    host = got.get()
    if fmt != "coo":
        assert host.indices.dtype == np.int32
        canonical = ref.asformat(fmt)
        assert np.array_equal(host.indptr, canonical.indptr) and np.array_equal(host.indices, canonical.indices)
    # An explicit dtype converts the values (on the device for DeviceArrays).
    f32 = rs.diags(args, q["offsets"], shape=(m, n), format=q["format"], dtype=np.float32)
    assert f32.dtype == np.float32
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        assert np.array_equal(f32.get().toarray(), ref.toarray().astype(np.float32))


def test_diags_arguments_as_scipys():
    # One diagonal with a scalar offset; the default shape holds it.
    got = rs.diags([1.0, 2.0, 3.0], 1)
    assert got.shape == (4, 4) and np.array_equal(got.get().toarray(), np.diag([1.0, 2.0, 3.0], 1))
    # Scalars broadcast along their diagonals; integer values become float64.
    lap = rs.diags([1, -2, 1], [-1, 0, 1], shape=(5, 5))
    assert lap.dtype == np.float64
    assert np.array_equal(lap.get().toarray(), sp.diags([1, -2, 1], [-1, 0, 1], shape=(5, 5), dtype=None).toarray())
    with pytest.raises(ValueError, match="Different number"):
        rs.diags([[1.0, 2.0], [3.0]], 0)
    with pytest.raises(ValueError, match="Different number"):
        rs.diags([[1.0, 2.0], [3.0]], [0])
    with pytest.raises(ValueError, match="duplicate"):
        rs.diags([[1.0, 2.0], [3.0, 4.0]], [0, 0])
    with pytest.raises(ValueError, match="out of bounds"):
        rs.diags([[1.0]], [5], shape=(2, 2))
    with pytest.raises(ValueError, match="does not agree"):
        rs.diags([[1.0, 2.0]], [0], shape=(3, 3))
    with pytest.raises(NotImplementedError, match="dia"):
        rs.diags([1.0], 0, format="dia")


@settings(max_examples=examples(30))
@given(st.sampled_from([0, 1, 3, 6]), st.sampled_from([None, 0, 2, 5]), st.integers(-7, 7),
       st.sampled_from([float, np.float32, np.complex64, np.complex128, int]), st.sampled_from([None, *FORMATS]))
def test_eye_and_identity_as_scipys(m, n, k, dtype, fmt):
    got = rs.eye(m, n, k, dtype=dtype, format=fmt)
    # A diagonal outside the matrix gives no entry, as cupyx's and numpy's (scipy 1.17 raises).
    ref = sp.csr_matrix(np.eye(m, n, k, dtype=dtype))
    want_dtype = np.float64 if np.dtype(dtype).kind == "i" else np.dtype(dtype)
    assert got.format == (fmt or "csr") and got.shape == ref.shape and got.dtype == want_dtype
    assert got.has_canonical_format and got.nnz == ref.nnz
    assert np.array_equal(got.get().toarray(), ref.toarray())
    if fmt in (None, "csr"):
        assert np.array_equal(got.indptr.get(), ref.indptr) and got.indices.dtype == np.int32
    ident = rs.identity(m, dtype=dtype, format=fmt)
    assert ident.format == (fmt or "csr") and np.array_equal(ident.get().toarray(), np.eye(m))


@pytest.mark.parametrize("fmt", [*FORMATS, None])
@pytest.mark.parametrize("dtype", [None, np.float32, np.complex128])
def test_random_is_scipys_matrix_copied_to_the_device(fmt, dtype):
    got = rs.random(7, 5, 0.4, format=fmt, dtype=dtype, random_state=4)
    ref = sp.random(7, 5, 0.4, format="coo", dtype=dtype, random_state=4)
    assert got.format == (fmt or "coo") and got.dtype == (dtype or np.float64) and got.nnz == ref.nnz
    assert np.array_equal(got.get().toarray(), ref.toarray())
    rng = np.random.default_rng(1)
    values = rs.random(30, 30, 0.1, random_state=rng, data_rvs=lambda k: np.full(k, 2.0))
    assert values.nnz == 90 and np.all(values.data.get() == 2.0)


@pytest.fixture
def matrix():
    """A CSR matrix with duplicates and stored zeros, on the device (made by each test)."""
    v = np.array([1.0, 0.0, 2.0, -2.0, 3.0, 0.0])
    r = np.array([0, 0, 1, 1, 2, 2])
    c = np.array([1, 0, 2, 2, 0, 1])
    return rs.coo_matrix((v, (r, c)), (3, 4))


def test_the_methods_read_back_only_counts_and_scalars(matrix, monkeypatch):
    sizes: list[int] = []
    get = rm.DeviceArray.get
    monkeypatch.setattr(rm.DeviceArray, "get", lambda self, *a, **k: sizes.append(self.size) or get(self, *a, **k))
    for a in (matrix, matrix.tocsr(), matrix.tocsc()):
        a.count_nonzero()
        a.diagonal(1)
        a.sum()
        a.sum(axis=0)
        a.mean(axis=1)
        a.multiply(a)
        abs(a).power(2)
        assert (a / 3).real.format == a.format
        a.copy().eliminate_zeros()
    rs.eye(50, 40, 3, format="csc")
    rs.diags([1, -2, 1], [-1, 0, 1], shape=(60, 60), format="coo")
    assert sizes and max(sizes) == 1


def test_refusals(matrix):
    with pytest.raises(ValueError, match="axis"):
        matrix.sum(axis=2)
    with pytest.raises(NotImplementedError, match="zero power"):
        matrix.power(0)
    with pytest.raises(NotImplementedError, match="scalar"):
        matrix.power(rm.to_device(np.ones(2)))
    with pytest.raises(ValueError, match="inconsistent shapes"):
        matrix.multiply(matrix.T)
    with pytest.raises(TypeError):
        matrix.multiply(rm.to_device(np.ones((3, 4))))
    with pytest.raises(TypeError):
        matrix / matrix
    with pytest.raises(ZeroDivisionError):
        matrix / 0
    assert matrix.asformat(None) is matrix and matrix.asformat("coo") is matrix
    assert matrix.asformat("csc").format == "csc" and matrix.asformat("coo", copy=True) is not matrix


def test_eliminate_zeros_keeps_the_canonical_flags(matrix):
    a = matrix.tocsr()  # canonical: (0,0) 0, (0,1) 1, (1,2) 0 (2 - 2), (2,0) 3, (2,1) 0
    assert a.has_canonical_format and a.nnz == 5 and a.count_nonzero() == 2
    a.eliminate_zeros()
    assert a.has_canonical_format and a.nnz == 2
    assert np.array_equal(a.indptr.get(), [0, 1, 1, 2]) and np.array_equal(a.indices.get(), [1, 0])
    c = matrix.copy()
    assert not c.has_canonical_format
    c.eliminate_zeros()  # the zeros stored, not the cancelling pair (scipy's): 4 entries stay
    assert c.nnz == 4 and not c.has_canonical_format and c.count_nonzero() == 2
    e = rs.csr_matrix((np.zeros(0), np.zeros(0, np.int32), np.zeros(4, np.int32)), (3, 2))
    e.eliminate_zeros()
    assert e.nnz == 0 and e.count_nonzero() == 0 and e.sum() == 0 and e.sum(axis=0).shape == (1, 2)
