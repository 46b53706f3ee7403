"""Hypothesis strategies for device-shaped problems.

They generate what ROCm math routines take: sizes that include the degenerate
0 and 1, column-major matrices with padded leading dimensions, increments of
either sign, strided batches (sometimes a huge count of tiny matrices, with the
total storage bounded), the four BLAS precisions, scalars including the special
values 0, 1, -1 and NaN, and well-scaled random host data.

Typical use::

    from hypothesis import given, strategies as st
    from rocmath.testing import host_arrays, matrix_problems

    @given(st.data())
    def test_my_routine(data):
        p = data.draw(matrix_problems())
        a = data.draw(host_arrays(p.precision, p.host_shape))
        ...
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from hypothesis import reject, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from ..precision import BF16, SDCZ, Precision, to_bfloat16

__all__ = [
    "OPERATION_CONJUGATE_TRANSPOSE",
    "OPERATION_LETTERS",
    "OPERATION_NONE",
    "OPERATION_TRANSPOSE",
    "MatrixProblem",
    "batch_counts",
    "examples",
    "host_arrays",
    "increments",
    "leading_dimensions",
    "matrix_problems",
    "operations",
    "precisions",
    "scalars",
    "sizes",
    "strided_batch",
]

#: ``rocblas_operation`` values.
OPERATION_NONE = 111
OPERATION_TRANSPOSE = 112
OPERATION_CONJUGATE_TRANSPOSE = 113
#: The BLAS letter of each ``rocblas_operation`` value.
OPERATION_LETTERS: dict[int, str] = {
    OPERATION_NONE: "N",
    OPERATION_TRANSPOSE: "T",
    OPERATION_CONJUGATE_TRANSPOSE: "C",
}
_ALL_OPERATIONS = tuple(OPERATION_LETTERS)


#: hypothesis's own ``max_examples``: the budget an ``examples(n)`` count is written for.
_DEFAULT_EXAMPLES = 100


def examples(n: int) -> int:
    """How many examples a test that asks for ``n`` runs under the loaded hypothesis profile.

    An explicit ``@settings(max_examples=n)`` wins over every profile, so a profile that asks for
    more examples (a nightly or pre-release run) would leave such tests as they are.  Write
    ``@settings(max_examples=examples(n))`` instead: ``n`` under a profile of hypothesis's default
    budget (100 examples) or less, scaled by the profile's ``max_examples / 100`` above it.  Call
    it where the decorator is evaluated, after the profile is loaded (a ``conftest.py``).

    Parameters
    ----------
    n
        The test's example count at the default budget (at least 1).

    Returns
    -------
    int
        ``n``, or ``n`` scaled up by the loaded profile.

    Examples
    --------
    Under hypothesis's default profile ``examples(40)`` is 40; after
    ``settings.load_profile("thorough")`` of a profile with ``max_examples=1000``, 400::

        @settings(max_examples=examples(40))
        @given(st.integers(0, 64))
        def test_something(n): ...
    """
    if n < 1:
        raise ValueError(f"examples: n must be at least 1, got {n}")
    budget = settings.default.max_examples
    return n if budget <= _DEFAULT_EXAMPLES else round(n * budget / _DEFAULT_EXAMPLES)


def _check_range(name: str, lo: int, hi: int) -> None:
    if lo < 0 or hi < lo:
        raise InvalidArgument(f"{name}: need 0 <= min_value <= max_value, got {lo} and {hi}")


# --- scalars of the problem shape ---------------------------------------------------------------


def sizes(min_value: int = 0, max_value: int = 64) -> st.SearchStrategy[int]:
    """Matrix or vector dimensions, biased toward the edge cases.

    Each draw comes, with equal weight, from one of: {0, 1}, the small sizes 2..8,
    the odd sizes, or the whole range (branches outside the range are dropped).
    As Hypothesis also avoids repeating itself, 0 and 1 show up early in every run.

    Parameters
    ----------
    min_value, max_value
        Inclusive bounds, ``0 <= min_value <= max_value``.

    Returns
    -------
    SearchStrategy[int]
    """
    _check_range("sizes", min_value, max_value)
    edges = [v for v in (0, 1) if min_value <= v <= max_value]
    small_hi = min(max_value, 8)
    branches: list[st.SearchStrategy[int]] = []
    if edges:
        branches.append(st.sampled_from(edges))
    if max(min_value, 2) <= small_hi:
        branches.append(st.integers(max(min_value, 2), small_hi))
    # Odd sizes catch kernels that assume an even (or vector-width) multiple.
    odd_lo, odd_hi = (min_value + 1) // 2, (max_value - 1) // 2
    if 0 <= odd_lo <= odd_hi:
        branches.append(st.integers(odd_lo, odd_hi).map(lambda k: 2 * k + 1))
    branches.append(st.integers(min_value, max_value))
    return st.one_of(branches)


def operations(*, letters: bool = False, allow_conjugate: bool = True) -> st.SearchStrategy[Any]:
    """``rocblas_operation`` values: none, transpose and conjugate transpose.

    Parameters
    ----------
    letters
        Draw the BLAS letters ``'N'``, ``'T'``, ``'C'`` instead of the ints 111, 112, 113.
    allow_conjugate
        Include the conjugate transpose.

    Returns
    -------
    SearchStrategy[int] or SearchStrategy[str]
    """
    ops = _ALL_OPERATIONS if allow_conjugate else (OPERATION_NONE, OPERATION_TRANSPOSE)
    return st.sampled_from([OPERATION_LETTERS[o] for o in ops] if letters else list(ops))


def leading_dimensions(rows: int, *, max_padding: int = 8) -> st.SearchStrategy[int]:
    """Leading dimensions for a column-major matrix with ``rows`` rows.

    Always ``>= max(1, rows)`` (the rocBLAS rule), and often (about half the
    draws) padded, strictly larger, so a routine that confuses ``m`` with ``lda`` fails.

    Parameters
    ----------
    rows
        The number of rows stored per column.
    max_padding
        The largest ``lda - max(1, rows)``.

    Returns
    -------
    SearchStrategy[int]
    """
    if rows < 0 or max_padding < 0:
        raise InvalidArgument(f"leading_dimensions: rows={rows} and max_padding={max_padding} must be >= 0")
    base = max(1, rows)
    if max_padding == 0:
        return st.just(base)
    return st.one_of(st.just(base), st.integers(1, max_padding).map(lambda pad: base + pad))


def increments(*, max_abs: int = 4, allow_zero: bool = False, allow_negative: bool = True) -> st.SearchStrategy[int]:
    """Vector increments (``incx``), biased toward +1 and -1.

    Parameters
    ----------
    max_abs
        The largest ``|inc|`` (at least 1).
    allow_zero
        Include 0 (invalid for most routines, a broadcast for a few).
    allow_negative
        Include negative increments (BLAS then walks the vector backwards).

    Returns
    -------
    SearchStrategy[int]
    """
    if max_abs < 1:
        raise InvalidArgument(f"increments: max_abs must be >= 1, got {max_abs}")
    signs = [1, -1] if allow_negative else [1]
    signed = st.tuples(st.integers(1, max_abs), st.sampled_from(signs)).map(lambda t: t[0] * t[1])
    return st.one_of(st.sampled_from(signs + ([0] if allow_zero else [])), signed)


def batch_counts(*, min_value: int = 0, max_value: int = 16) -> st.SearchStrategy[int]:
    """Batch counts: mostly 1 and small counts, with ``min_value`` (often 0) as an edge case.

    For huge batch counts of tiny matrices, with their storage bounded, use
    :func:`strided_batch`.

    Parameters
    ----------
    min_value, max_value
        Inclusive bounds.

    Returns
    -------
    SearchStrategy[int]
    """
    _check_range("batch_counts", min_value, max_value)
    branches: list[st.SearchStrategy[int]] = [st.just(min_value)]
    if min_value <= 1 <= max_value:
        branches.append(st.just(1))
    branches.append(st.integers(min_value, max_value))
    return st.one_of(branches)


def precisions(include: Sequence[Precision] = SDCZ) -> st.SearchStrategy[Precision]:
    """Precisions from the :class:`~rocmath.Precision` table (S, D, C, Z by default).

    Parameters
    ----------
    include
        The precisions to draw from.

    Returns
    -------
    SearchStrategy[Precision]
    """
    if not include:
        raise InvalidArgument("precisions: include must not be empty")
    return st.sampled_from(list(include))


def _part_floats(part: np.dtype[Any], max_magnitude: float) -> st.SearchStrategy[float]:
    # Hypothesis wants bounds exactly representable at the float width: round toward zero.
    bound = np.array(max_magnitude, dtype=part)[()]
    if bound > max_magnitude:
        bound = np.nextafter(bound, part.type(0))
    width: Literal[32, 64] = 32 if part.itemsize == 4 else 64
    return st.floats(-float(bound), float(bound), width=width, allow_nan=False, allow_infinity=False)


def scalars(precision: Precision, *, allow_nan: bool = True, allow_infinity: bool = False,
            max_magnitude: float = 4.0) -> st.SearchStrategy[np.generic]:
    """Scalars (``alpha``, ``beta``...) in the compute type of ``precision``.

    Special values come often: 0, 1, -1 (and NaN when allowed), plus ``1j``,
    ``-1j`` and ``1 - 1j`` for complex precisions, whose random draws have
    nonzero imaginary parts as often as not.

    Parameters
    ----------
    precision
        The precision; scalars are numpy scalars of its ``compute_dtype``.
    allow_nan
        Include NaN (and, for complex, a NaN real or imaginary part).
    allow_infinity
        Include +-inf.
    max_magnitude
        Bound on the magnitude of each part of the random (non-special) values.

    Returns
    -------
    SearchStrategy[numpy.generic]
    """
    p = Precision.of(precision)
    dtype = p.compute_dtype
    special: list[complex | float] = [0.0, 1.0, -1.0]
    if p.is_complex:
        special += [1j, -1j, 1 - 1j]
    if allow_nan:
        special += [float("nan")] + ([complex(0.0, float("nan"))] if p.is_complex else [])
    if allow_infinity:
        special += [float("inf"), float("-inf")]
    if not max_magnitude > 0:
        raise InvalidArgument(f"scalars: max_magnitude must be > 0, got {max_magnitude}")
    part = _part_floats(p.real.compute_dtype, max_magnitude)
    random: st.SearchStrategy[Any] = st.builds(complex, part, part) if p.is_complex else part
    return st.one_of(st.sampled_from(special), random).map(lambda v: np.array(v, dtype=dtype)[()])


# --- host data ---------------------------------------------------------------------------------


def _random_values(rng: np.random.Generator, shape: tuple[int, ...], integer_valued: bool) -> np.ndarray:
    # Magnitudes kept in [1/8, 1] (or integers 1..3): no tiny elements to inflate relative
    # errors, no huge ones to overflow, and every part nonzero so complex data is truly complex.
    mag = rng.integers(1, 4, size=shape).astype(np.float64) if integer_valued else rng.uniform(0.125, 1.0, size=shape)
    return np.where(rng.random(shape) < 0.5, -mag, mag)


def host_arrays(precision: Precision, shape: int | Sequence[int], order: Literal["C", "F"] = "F", *,
                integer_valued: bool = False) -> st.SearchStrategy[np.ndarray]:
    """Well-scaled, finite, random host arrays of ``precision``.

    The elements are drawn from a seeded generator (Hypothesis draws the seed, so a
    failure is reproducible and large arrays stay fast): each real or imaginary
    part has magnitude in [1/8, 1] and a random sign.  With ``integer_valued``
    every part is one of +-1, +-2, +-3, so sums and products of moderate length
    are exact in every precision and results can be compared with
    ``tol(precision, "exact")``.

    Parameters
    ----------
    precision
        Element type (its storage dtype; half and bfloat16 are rounded from these values).
    shape
        The array shape.
    order
        Memory order of the result: ``"F"`` (column-major, rocBLAS's) or ``"C"``.
    integer_valued
        Draw small nonzero integers instead of uniform values.

    Returns
    -------
    SearchStrategy[numpy.ndarray]
    """
    p = Precision.of(precision)
    shp = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)
    if order not in ("C", "F"):
        raise InvalidArgument(f"host_arrays: order must be 'C' or 'F', got {order!r}")

    def build(seed: int) -> np.ndarray:
        rng = np.random.default_rng(seed)
        values: np.ndarray = _random_values(rng, shp, integer_valued)
        if p.is_complex:
            values = values + 1j * _random_values(rng, shp, integer_valued)
        stored = to_bfloat16(values) if p is BF16 else values.astype(p.dtype)
        return np.asfortranarray(stored) if order == "F" else np.ascontiguousarray(stored)

    return st.integers(0, 2**32 - 1).map(build)


# --- composite problems --------------------------------------------------------------------------


@dataclass(frozen=True)
class MatrixProblem:
    """One stored column-major matrix argument, possibly a strided batch of them.

    The matrix is stored ``m x n`` with leading dimension ``lda`` (rocBLAS's
    convention, as for ``gemv``: ``op`` applies on top, so ``op(A)`` is
    :attr:`op_shape`).  Entry ``b`` of a batch starts ``b * stride`` elements
    after the first.

    Attributes
    ----------
    m, n
        Stored rows and columns.
    lda
        Leading dimension, ``>= max(1, m)``.
    precision
        Element type.
    op
        ``rocblas_operation`` value (111, 112 or 113).
    batch_count
        Number of matrices (1 for a plain problem).
    stride
        Elements between consecutive matrices, ``>= lda * n``.
    batched
        Whether the problem is a strided batch (even of count 0 or 1).
    """

    m: int
    n: int
    lda: int
    precision: Precision
    op: int = OPERATION_NONE
    batch_count: int = 1
    stride: int = 0
    batched: bool = False

    def __post_init__(self) -> None:
        if self.m < 0 or self.n < 0 or self.batch_count < 0:
            raise ValueError(f"negative size in {self}")
        if self.lda < max(1, self.m):
            raise ValueError(f"lda={self.lda} must be >= max(1, m={self.m})")
        if self.stride < self.lda * self.n and self.batch_count > 1:
            raise ValueError(f"stride={self.stride} must be >= lda*n={self.lda * self.n}")
        if self.op not in OPERATION_LETTERS:
            raise ValueError(f"op={self.op} is not a rocblas_operation (111, 112, 113)")

    @property
    def dtype(self) -> np.dtype[Any]:
        """The storage dtype."""
        return self.precision.dtype

    @property
    def op_letter(self) -> str:
        """``'N'``, ``'T'`` or ``'C'``."""
        return OPERATION_LETTERS[self.op]

    @property
    def op_shape(self) -> tuple[int, int]:
        """The shape of ``op(A)``."""
        return (self.m, self.n) if self.op == OPERATION_NONE else (self.n, self.m)

    @property
    def host_shape(self) -> tuple[int, ...]:
        """Shape of the logical host data: ``(m, n)``, or ``(batch_count, m, n)`` when batched."""
        return (self.batch_count, self.m, self.n) if self.batched else (self.m, self.n)

    @property
    def storage_elements(self) -> int:
        """Elements from the first to one past the last that a routine may touch (0 if empty)."""
        if self.m == 0 or self.n == 0 or self.batch_count == 0:
            return 0
        return self.stride * (self.batch_count - 1) + self.lda * (self.n - 1) + self.m


def matrix_problems(*, precisions: Sequence[Precision] = SDCZ, max_size: int = 32, max_padding: int = 8,
                    operations: Sequence[int] = _ALL_OPERATIONS,
                    square: bool = False) -> st.SearchStrategy[MatrixProblem]:
    """Plain (unbatched) matrix problems: sizes, padded ``lda``, operation and precision.

    Parameters
    ----------
    precisions
        Precisions to draw from.
    max_size
        Largest ``m`` and ``n``.
    max_padding
        Largest ``lda - max(1, m)``.
    operations
        ``rocblas_operation`` values to draw from.
    square
        Draw ``m == n``.

    Returns
    -------
    SearchStrategy[MatrixProblem]
        With ``batch_count == 1``, ``stride == lda * n`` and ``batched`` False.
    """
    if not operations or not precisions:
        raise InvalidArgument("matrix_problems: operations and precisions must not be empty")

    @st.composite
    def build(draw: st.DrawFn) -> MatrixProblem:
        m = draw(sizes(max_value=max_size))
        n = m if square else draw(sizes(max_value=max_size))
        lda = draw(leading_dimensions(m, max_padding=max_padding))
        return MatrixProblem(m, n, lda, draw(st.sampled_from(list(precisions))),
                             draw(st.sampled_from(list(operations))), 1, lda * n, False)

    return build()


def strided_batch(*, precisions: Sequence[Precision] = SDCZ, max_size: int = 16, max_padding: int = 8,
                  min_batch: int = 0, max_batch: int = 10**6, max_elements: int = 2**20,
                  operations: Sequence[int] = _ALL_OPERATIONS,
                  square: bool = False) -> st.SearchStrategy[MatrixProblem]:
    """Strided-batched matrix problems, storage bounded by ``max_elements``.

    Most draws have a small batch (0, 1, a few) of matrices up to ``max_size``;
    about one in ten is a large batch (from 1000 up to ``max_batch``, storage
    permitting) of tiny matrices, at most 4 x 4.  The stride is ``lda * n`` or,
    often, padded beyond it.  Always ``batch_count * max(stride, lda * n) <=
    max_elements``, so a test can allocate what it draws.

    Parameters
    ----------
    precisions
        Precisions to draw from.
    max_size
        Largest ``m`` and ``n`` of the small-batch draws.
    max_padding
        Largest ``lda - max(1, m)``; the stride padding goes up to ``2 * max_padding``.
    min_batch, max_batch
        Inclusive bounds on ``batch_count``.
    max_elements
        Bound on ``batch_count * max(stride, lda * n)``.
    operations
        ``rocblas_operation`` values to draw from.
    square
        Draw ``m == n``.

    Returns
    -------
    SearchStrategy[MatrixProblem]
        With ``batched`` True.
    """
    _check_range("strided_batch", min_batch, max_batch)
    if not operations or not precisions:
        raise InvalidArgument("strided_batch: operations and precisions must not be empty")

    @st.composite
    def build(draw: st.DrawFn) -> MatrixProblem:
        large = max_batch >= 1000 and draw(st.integers(0, 7)) == 0
        size_cap = min(4, max_size) if large else max_size
        m = draw(sizes(max_value=size_cap))
        n = m if square else draw(sizes(max_value=size_cap))
        lda = draw(leading_dimensions(m, max_padding=min(2, max_padding) if large else max_padding))
        stride_pad = draw(st.one_of(st.just(0), st.just(0), st.integers(0, 2 * max_padding)))
        stride = lda * n + stride_pad
        per_entry = max(stride, lda * n, 1)
        cap = min(max_batch, max_elements // per_entry)
        if cap < min_batch:
            reject()  # the bound cannot hold for this shape; only with a tiny max_elements
        if large and cap >= 1000:
            batch = draw(st.one_of(st.integers(max(1000, min_batch), cap), st.just(cap)))
        else:
            batch = draw(batch_counts(min_value=min_batch, max_value=min(cap, max(min_batch, 16))))
        return MatrixProblem(m, n, lda, draw(st.sampled_from(list(precisions))),
                             draw(st.sampled_from(list(operations))), batch, stride, True)

    return build()
