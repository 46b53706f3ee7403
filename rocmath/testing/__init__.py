"""rocmath.testing: property-test ROCm-style math code.

Three parts, usable on their own:

- :mod:`~rocmath.testing.strategies`: Hypothesis strategies for device-shaped
  problems (sizes with 0 and 1, padded leading dimensions, signed increments,
  strided batches with bounded storage, precisions, special scalars, host data).
- :mod:`~rocmath.testing.poison`: device buffers whose padding, batch gaps and
  margins hold a NaN sentinel that is checked bitwise afterwards, snapshots of
  memory that must stay unchanged, and poisoned outputs.
- :mod:`~rocmath.testing.tolerance`: ``tol(precision, kind, n)``, ``assert_close``
  and LAPACK's scale-free residual ratios (pass mark 30).

Example::

    from hypothesis import given, strategies as st
    import rocmath.testing as rt

    @given(st.data())
    def test_scale_columns(data):
        p = data.draw(rt.matrix_problems())
        a = data.draw(rt.host_arrays(p.precision, p.host_shape))
        with rt.poisoned_device_matrix(a, p.lda) as d:
            my_routine(p.m, p.n, d.ptr, p.lda)
            d.check_untouched()
            rt.assert_close(d.get(), expected(a), p.precision, "elementwise")
"""

from __future__ import annotations

from .poison import (
    PaddedDeviceMatrix,
    PaddedDeviceVector,
    Snapshot,
    assert_unchanged,
    assert_written,
    poison_output,
    poisoned_device_matrix,
    poisoned_device_vector,
    sentinel_value,
    snapshot,
)
from .strategies import (
    OPERATION_CONJUGATE_TRANSPOSE,
    OPERATION_LETTERS,
    OPERATION_NONE,
    OPERATION_TRANSPOSE,
    MatrixProblem,
    batch_counts,
    examples,
    host_arrays,
    increments,
    leading_dimensions,
    matrix_problems,
    operations,
    precisions,
    scalars,
    sizes,
    strided_batch,
)
from .tolerance import (
    RESIDUAL_THRESHOLD,
    Kind,
    assert_close,
    backward_error,
    eigh_residual_ratio,
    ipiv_to_perm,
    lu_residual_ratio,
    orthogonality_ratio,
    qr_residual_ratio,
    scale_of,
    svd_residual_ratio,
    tol,
    unpack_lu,
)

__all__ = [
    "OPERATION_CONJUGATE_TRANSPOSE",
    "OPERATION_LETTERS",
    "OPERATION_NONE",
    "OPERATION_TRANSPOSE",
    "RESIDUAL_THRESHOLD",
    "Kind",
    "MatrixProblem",
    "PaddedDeviceMatrix",
    "PaddedDeviceVector",
    "Snapshot",
    "assert_close",
    "assert_unchanged",
    "assert_written",
    "backward_error",
    "batch_counts",
    "examples",
    "eigh_residual_ratio",
    "host_arrays",
    "increments",
    "ipiv_to_perm",
    "leading_dimensions",
    "lu_residual_ratio",
    "matrix_problems",
    "operations",
    "orthogonality_ratio",
    "poison_output",
    "poisoned_device_matrix",
    "poisoned_device_vector",
    "precisions",
    "qr_residual_ratio",
    "scale_of",
    "scalars",
    "sentinel_value",
    "sizes",
    "snapshot",
    "strided_batch",
    "svd_residual_ratio",
    "tol",
    "unpack_lu",
]
