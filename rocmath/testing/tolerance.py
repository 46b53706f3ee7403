"""Tolerances that scale with machine epsilon and problem size, and LAPACK's test ratios.

Two ways to judge a floating-point result, in order of preference:

1. A scale-free residual ratio, as LAPACK's test suite computes it, e.g.
   ``||P A - L U||_1 / (n ||A||_1 eps)``.  It needs no reference result, so it
   also works where the output is not unique (pivot choices, eigenvector signs).
   A correct routine gives ratios of order 1; the pass mark is
   :data:`RESIDUAL_THRESHOLD` (30, LAPACK's ``dtest.in`` threshold).
2. A comparison with a reference, :func:`assert_close`, whose tolerance
   :func:`tol` grows with ``eps`` and with ``n`` as the kind of computation's
   error does.

``eps`` is always :attr:`Precision.eps` of the precision the routine computed in.
Residuals are evaluated in double precision (complex128 or float64), so their own
rounding does not count against a single-precision routine.
"""

from __future__ import annotations

import math
from typing import Any, Literal, get_args

import numpy as np

from ..array import DeviceArray
from ..precision import BF16, Precision, from_bfloat16

__all__ = [
    "RESIDUAL_THRESHOLD",
    "Kind",
    "assert_close",
    "backward_error",
    "eigh_residual_ratio",
    "ipiv_to_perm",
    "lu_residual_ratio",
    "orthogonality_ratio",
    "qr_residual_ratio",
    "scale_of",
    "svd_residual_ratio",
    "tol",
    "unpack_lu",
]

#: Pass mark of every residual ratio here: LAPACK's "threshold value of test ratio".
RESIDUAL_THRESHOLD = 30.0

Kind = Literal["exact", "elementwise", "reduction", "factorization", "fft"]
_KINDS: tuple[str, ...] = get_args(Kind)

# Constants in front of the growth terms.  They are deliberately loose (several times
# what correct kernels show), because a flaky tolerance is worse than a loose one: bugs
# (a wrong index, a missed conjugate) give errors of order 1, not of order 10 eps.
_ELEMENTWISE = 4.0
_REDUCTION = 10.0
_FFT = 10.0
_SUBNORMAL_STEPS = 4.0


def tol(precision: Any, kind: Kind, n: int = 1) -> float:
    """The relative tolerance for a result of ``precision`` computed by ``kind`` of work on size ``n``.

    Parameters
    ----------
    precision
        A :class:`~rocmath.Precision` (or dtype, array or BLAS letter) the routine computed in.
    kind
        ``"exact"``
            Data movement, or integer-valued inputs whose results are exact: 0.
        ``"elementwise"``
            A few operations per element (scal, axpy, geam): ``4 eps``.
        ``"reduction"``
            Sums of ``n`` terms (dot, gemv, gemm with ``n = k``): ``10 sqrt(n) eps``, the
            statistical growth of rounding errors (the worst case, ``n eps``, is far
            too pessimistic for random data).
        ``"factorization"``
            A residual ``||A - factors||/||A||`` of an order-``n`` factorization:
            ``30 n eps``, the same bound :data:`RESIDUAL_THRESHOLD` puts on the ratios.
        ``"fft"``
            An FFT of length ``n``: ``10 eps log2(n)``, as rocFFT's accuracy tests.
    n
        The problem size driving the error growth (the summed length, the order, the FFT length).

    Returns
    -------
    float
        Relative to the size of the data: :func:`assert_close` scales it by the largest
        expected magnitude.
    """
    if kind not in _KINDS:
        raise ValueError(f"kind must be one of {_KINDS}, got {kind!r}")
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    eps = Precision.of(precision).eps
    size = max(int(n), 1)
    if kind == "exact":
        return 0.0
    if kind == "elementwise":
        return _ELEMENTWISE * eps
    if kind == "reduction":
        return _REDUCTION * math.sqrt(size) * eps
    if kind == "factorization":
        return RESIDUAL_THRESHOLD * size * eps
    return _FFT * max(1.0, math.log2(size)) * eps


# --- comparison with a reference -----------------------------------------------------------------


def _smallest_subnormal(p: Precision) -> float:
    if p is BF16:
        return 2.0**-133  # float32's exponent range, 7 stored fraction bits
    return float(np.finfo(p.dtype if not p.storage_only else np.float16).smallest_subnormal)


def _host(x: Any, precision: Precision | None = None) -> np.ndarray:
    arr = x.get() if isinstance(x, DeviceArray) else np.asarray(x)
    if precision is BF16 and arr.dtype == np.uint16:  # bfloat16 bits: compare values
        return from_bfloat16(arr)
    return arr


def assert_close(actual: Any, expected: Any, precision: Any, kind: Kind, n: int = 1, *,
                 scale: float | None = None, err_msg: str = "") -> None:
    """Assert ``|actual - expected| <= tol(precision, kind, n) * scale + floor`` elementwise.

    ``floor`` is ``4 n`` subnormal steps of the precision (0 when ``tol`` is 0): results
    in the subnormal range carry absolute, not relative, rounding errors.

    NaNs must match NaNs (and infinities equal infinities) at the same positions.

    Parameters
    ----------
    actual
        The result (a host array, or a DeviceArray, copied to the host).
    expected
        The reference, of the same shape.
    precision, kind, n
        As for :func:`tol`.
    scale
        The magnitude errors are relative to (default: the largest finite
        ``|expected|``, or 1 when that is 0).  Pass the size of the terms summed
        (e.g. ``max(|A| @ |x|)``) when the reference cancels to something small.
    err_msg
        Prepended to the failure message.

    Raises
    ------
    AssertionError
        With the number of failing elements, the largest absolute and relative errors,
        where they are and their values, and the tolerance used.
    """
    prec = Precision.of(precision)
    a, e = _host(actual, prec), _host(expected, prec)
    head = f"{err_msg}: " if err_msg else ""
    if a.shape != e.shape:
        raise AssertionError(f"{head}shape mismatch: actual {a.shape}, expected {e.shape}")
    t = tol(prec, kind, n)
    wide = np.complex128 if np.iscomplexobj(a) or np.iscomplexobj(e) else np.float64
    # invalid: a poison sentinel (signaling NaN) left in the result must fail the check, not warn.
    with np.errstate(invalid="ignore", over="ignore"):
        aw, ew = a.astype(wide), e.astype(wide)
        same = (aw == ew) | (np.isnan(aw) & np.isnan(ew))
        err = np.where(same, 0.0, np.abs(aw - ew))
    err = np.nan_to_num(err, nan=np.inf, posinf=np.inf)  # inf - inf, or a NaN on one side only
    finite = np.abs(ew[np.isfinite(ew)])
    if scale is None:
        scale = float(finite.max()) if finite.size and finite.max() > 0 else 1.0
    # Below the normal range the spacing of the numbers is absolute (one subnormal step), so
    # a relative tolerance alone would demand exact results there: allow a step per operation.
    allowed = t * scale + (_SUBNORMAL_STEPS * max(int(n), 1) * _smallest_subnormal(prec) if t else 0.0)
    bad = err > allowed
    if not bad.any():
        return
    worst = np.unravel_index(int(np.argmax(err)), err.shape) if err.ndim else ()
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.where(same, 0.0, err / np.abs(ew))
    rel = np.nan_to_num(rel, nan=np.inf, posinf=np.inf)
    worst_rel = np.unravel_index(int(np.argmax(rel)), rel.shape) if rel.ndim else ()
    raise AssertionError(
        f"{head}{int(bad.sum())} of {bad.size} element(s) not close "
        f"(precision {prec!r}, kind {kind!r}, n={n}):\n"
        f"  max abs error {float(err[worst]):.3e} at index {tuple(int(i) for i in worst)}: "
        f"actual {a[worst]!r}, expected {e[worst]!r}\n"
        f"  max rel error {float(rel[worst_rel]):.3e} at index {tuple(int(i) for i in worst_rel)}\n"
        f"  allowed abs error {allowed:.3e} = tol {t:.3e} x scale {scale:.3e} "
        f"({err.max() / allowed if allowed else math.inf:.3g} times the tolerance)")


# --- LAPACK-style residual ratios ----------------------------------------------------------------


def scale_of(precision: Any, *terms: Any) -> float:
    """The size of the terms a result adds up, for :func:`assert_close`'s ``scale`` when they may cancel.

    A sum that cancels to a small value carries the rounding error of its terms, not of itself, so
    its tolerance must be relative to them.

    Parameters
    ----------
    precision
        The result's precision (its smallest normal number is the least scale returned: subnormal
        results carry an absolute error floor).
    *terms
        The terms, as arrays (or scalars) that broadcast together: the scale is the largest
        elementwise sum of their magnitudes, infinities and NaNs left out.

    Returns
    -------
    float
        That largest sum, at least the smallest normal number of ``precision``.
    """
    prec = Precision.of(precision)
    total = np.asarray(sum(np.nan_to_num(np.abs(np.asarray(t)).astype(np.float64), nan=0.0, posinf=0.0)
                           for t in terms))
    largest = float(total.max()) if total.size else 0.0
    return max(largest, float(np.finfo(prec.real.dtype).tiny))


def _eps_of(precision: Any, *arrays: np.ndarray) -> float:
    """The given precision's eps, else the largest eps among the arrays' floating dtypes."""
    if precision is not None:
        return Precision.of(precision).eps
    found = []
    for a in arrays:
        try:
            found.append(Precision.of(a.dtype).eps)
        except TypeError:
            continue
    if not found:
        raise TypeError("no floating-point array to take eps from; pass precision=")
    return max(found)


def _wide(*arrays: Any) -> list[np.ndarray]:
    """The arrays in double precision, complex if any of them is."""
    hosts = [_host(a) for a in arrays]
    dt = np.complex128 if any(np.iscomplexobj(h) for h in hosts) else np.float64
    return [h.astype(dt) for h in hosts]


def _norm1(x: np.ndarray) -> np.ndarray:
    """Matrix 1-norm (largest column sum) over the last two axes; 0 for empty matrices."""
    if x.shape[-1] == 0 or x.shape[-2] == 0:
        return np.zeros(x.shape[:-2])
    return np.abs(x).sum(axis=-2).max(axis=-1)


def _ratio(resid: np.ndarray, anorm: np.ndarray, dim: int, eps: float) -> float:
    """``max over the batch of resid / (dim * anorm * eps)``, LAPACK's conventions for 0."""
    resid, anorm = np.broadcast_arrays(np.asarray(resid, dtype=float), np.asarray(anorm, dtype=float))
    if resid.size == 0:
        return 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(anorm > 0, resid / (max(dim, 1) * anorm * eps), np.where(resid > 0, 1.0 / eps, 0.0))
    # A NaN anywhere is a failure, not a pass: compare-with-NaN is False.
    return float(np.inf) if np.isnan(r).any() else float(r.max())


def unpack_lu(lu: Any) -> tuple[np.ndarray, np.ndarray]:
    """Split a packed LU factorization (``getrf`` output) into ``L`` and ``U``.

    Parameters
    ----------
    lu
        ``m x n`` (or ``... x m x n``): ``U`` on and above the diagonal, the unit
        lower-triangular ``L`` strictly below it.

    Returns
    -------
    L : numpy.ndarray
        ``m x k`` unit lower triangular, ``k = min(m, n)``.
    U : numpy.ndarray
        ``k x n`` upper triangular.
    """
    a = _host(lu)
    m, n = a.shape[-2:]
    k = min(m, n)
    lower = np.tril(a[..., :, :k], -1) + np.eye(m, k, dtype=a.dtype)
    return lower, np.triu(a[..., :k, :])


def ipiv_to_perm(ipiv: Any, m: int | None = None, *, base: int = 1) -> np.ndarray:
    """Turn LAPACK/rocSOLVER pivots (sequential row swaps) into a row permutation.

    Parameters
    ----------
    ipiv
        Pivot indices: row ``i`` was swapped with row ``ipiv[i] - base``, for
        ``i = 0, 1, ...`` in order.  Leading batch axes are allowed.
    m
        Number of rows of the matrix (default ``len(ipiv)``).
    base
        1 for LAPACK and rocSOLVER, 0 for ``scipy.linalg.lu_factor``.

    Returns
    -------
    numpy.ndarray
        ``perm`` with ``(P A) = A[perm]`` (per batch entry).
    """
    piv = np.asarray(ipiv, dtype=np.int64) - base
    rows = piv.shape[-1] if m is None else int(m)
    flat = piv.reshape(-1, piv.shape[-1])
    perm = np.tile(np.arange(rows), (flat.shape[0], 1))
    for b in range(flat.shape[0]):
        for i, p in enumerate(flat[b]):
            if not 0 <= p < rows:
                raise ValueError(f"pivot {p + base} at position {i} is outside 1..{rows} (base {base})")
            perm[b, i], perm[b, p] = perm[b, p], perm[b, i]
    return perm.reshape((*piv.shape[:-1], rows))


def lu_residual_ratio(A: Any, L: Any, U: Any, perm: Any = None, *, ipiv: Any = None,
                      precision: Any = None) -> float:
    """LAPACK's ``xGET01`` ratio ``||P A - L U||_1 / (n ||A||_1 eps)``.

    Parameters
    ----------
    A
        The ``m x n`` matrix factored (leading batch axes allowed: the worst entry counts).
    L, U
        Its factors: ``m x k`` unit lower and ``k x n`` upper triangular (see :func:`unpack_lu`).
    perm
        Row permutation with ``P A = A[perm]`` (``scipy.linalg.lu(A, p_indices=True)``
        returns the inverse: pass ``numpy.argsort(p)``).  None for no pivoting.
    ipiv
        Alternatively, LAPACK/rocSOLVER 1-based pivots (see :func:`ipiv_to_perm`).
    precision
        The precision the factorization ran in (default: the least precise of the inputs).

    Returns
    -------
    float
        Of order 1 for a correct factorization; compare with :data:`RESIDUAL_THRESHOLD`.
    """
    eps = _eps_of(precision, *map(_host, (A, L, U)))
    a, lo, up = _wide(A, L, U)
    if ipiv is not None:
        if perm is not None:
            raise ValueError("give perm or ipiv, not both")
        perm = ipiv_to_perm(ipiv, a.shape[-2])
    if perm is not None:
        p = np.broadcast_to(np.asarray(perm, dtype=np.int64), (*a.shape[:-1],))
        a = np.take_along_axis(a, p[..., None], axis=-2)
    return _ratio(_norm1(a - lo @ up), _norm1(a), a.shape[-1], eps)


def qr_residual_ratio(A: Any, Q: Any, R: Any, *, precision: Any = None) -> float:
    """LAPACK's ``xQRT01`` ratio ``||A - Q R||_1 / (max(m, n) ||A||_1 eps)``.

    Parameters
    ----------
    A
        The ``m x n`` matrix (leading batch axes allowed).
    Q, R
        Its factors, full (``m x m``, ``m x n``) or economic (``m x k``, ``k x n``).
    precision
        The precision the factorization ran in (default: the least precise of the inputs).

    Returns
    -------
    float
        Of order 1 for a correct factorization; check :func:`orthogonality_ratio` of ``Q`` too.
    """
    eps = _eps_of(precision, *map(_host, (A, Q, R)))
    a, q, r = _wide(A, Q, R)
    k = min(q.shape[-1], r.shape[-2])
    return _ratio(_norm1(a - q[..., :, :k] @ r[..., :k, :]), _norm1(a), max(a.shape[-2:]), eps)


def orthogonality_ratio(Q: Any, *, precision: Any = None) -> float:
    """LAPACK's ``xORT01`` ratio ``||I - Q^H Q||_1 / (m eps)`` for ``Q`` with orthonormal columns.

    A wide ``Q`` (fewer rows than columns, such as ``Vh`` of an SVD) is checked for
    orthonormal rows instead: ``||I - Q Q^H||_1 / (n eps)``.

    Parameters
    ----------
    Q
        ``m x k`` (leading batch axes allowed).
    precision
        The precision ``Q`` was computed in (default: its own).

    Returns
    -------
    float
        Of order 1 for an orthonormal ``Q``.
    """
    eps = _eps_of(precision, _host(Q))
    (q,) = _wide(Q)
    m, k = q.shape[-2:]
    qh = np.swapaxes(q, -1, -2).conj()
    gram, dim, length = (qh @ q, k, m) if m >= k else (q @ qh, m, k)
    return _ratio(_norm1(np.eye(dim) - gram), np.ones(gram.shape[:-2]), length, eps)


def svd_residual_ratio(A: Any, U: Any, s: Any, Vh: Any, *, precision: Any = None) -> float:
    """LAPACK's ``xBDT01``-style ratio ``||A - U diag(s) V^H||_1 / (max(m, n) ||A||_1 eps)``.

    Parameters
    ----------
    A
        The ``m x n`` matrix (leading batch axes allowed).
    U, s, Vh
        Its singular value decomposition, full or economic (only the first ``len(s)``
        columns of ``U`` and rows of ``Vh`` are used).
    precision
        The precision the SVD ran in (default: the least precise of the inputs).

    Returns
    -------
    float
        Of order 1 for a correct SVD; check :func:`orthogonality_ratio` of ``U`` and ``Vh`` too.
    """
    eps = _eps_of(precision, *map(_host, (A, U, s, Vh)))
    a, u, sv, vh = _wide(A, U, s, Vh)
    k = sv.shape[-1]
    recon = (u[..., :, :k] * sv[..., None, :]) @ vh[..., :k, :]
    return _ratio(_norm1(a - recon), _norm1(a), max(a.shape[-2:]), eps)


def eigh_residual_ratio(A: Any, w: Any, V: Any, *, precision: Any = None) -> float:
    """LAPACK's ``xSYT22``-style ratio ``||A V - V diag(w)||_1 / (n ||A||_1 eps)``.

    Works for all eigenpairs or a subset (``V`` of shape ``n x k``).

    Parameters
    ----------
    A
        The Hermitian ``n x n`` matrix (leading batch axes allowed).
    w, V
        Eigenvalues and eigenvectors (columns).
    precision
        The precision the eigensolver ran in (default: the least precise of the inputs).

    Returns
    -------
    float
        Of order 1 for correct eigenpairs; check :func:`orthogonality_ratio` of ``V`` too.
    """
    eps = _eps_of(precision, *map(_host, (A, w, V)))
    a, ev, v = _wide(A, w, V)
    return _ratio(_norm1(a @ v - v * ev[..., None, :]), _norm1(a), a.shape[-1], eps)


def backward_error(A: Any, x: Any, b: Any, *, precision: Any = None) -> float:
    """LAPACK's ``xGET02`` ratio: ``max_j ||b_j - A x_j||_1 / (||A||_1 ||x_j||_1 eps)``.

    The normwise backward error of a solution, in units of ``eps``.

    Parameters
    ----------
    A
        The ``n x n`` (or ``m x n``) matrix (leading batch axes allowed).
    x
        Solution(s): a vector of length ``n`` or an ``n x nrhs`` matrix.
    b
        Right-hand side(s), shaped like ``A @ x``.
    precision
        The precision the solver ran in (default: the least precise of the inputs).

    Returns
    -------
    float
        Of order 1 for a backward-stable solver; compare with :data:`RESIDUAL_THRESHOLD`.
    """
    eps = _eps_of(precision, *map(_host, (A, x, b)))
    a, xs, bs = _wide(A, x, b)
    vector = xs.ndim == a.ndim - 1
    if vector:
        xs, bs = xs[..., None], bs[..., None]
    resid = np.abs(bs - a @ xs).sum(axis=-2)  # per right-hand side
    xnorm = np.abs(xs).sum(axis=-2)
    anorm = _norm1(a)[..., None]
    if resid.size == 0:
        return 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where((anorm > 0) & (xnorm > 0), resid / (anorm * xnorm * eps),
                     np.where(resid > 0, 1.0 / eps, 0.0))
    return float(np.inf) if np.isnan(r).any() else float(r.max())
