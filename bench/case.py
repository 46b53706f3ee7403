"""What a bench case is: a named setup that builds a :class:`Problem` for a size.

A :class:`BenchCase` says which suites it belongs to and at which sizes; its
``setup(size)`` builds the inputs and returns a :class:`Problem`, which holds the
rocmath call to time, the NumPy/SciPy reference on equivalent host data, the work
done per call (flops and bytes) and how to compare the two results.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["BenchCase", "Problem", "default_tol", "max_rel_error", "to_host"]


def to_host(value: Any) -> Any:
    """A host copy of a result: ``.get()`` for a DeviceArray, the value itself otherwise.

    Call it only after the work that produced ``value`` was synchronized.
    """
    from rocmath import DeviceArray

    if isinstance(value, DeviceArray):
        return value.get()
    if isinstance(value, tuple):
        return tuple(to_host(v) for v in value)
    return value


def max_rel_error(actual: Any, expected: Any) -> float:
    """Norm-wise maximum relative error: ``max|actual - expected| / max|expected|``.

    Dividing by the largest reference magnitude (as rocBLAS's norm checks do) rather
    than element by element keeps zeros in the reference from making the error
    infinite.  Matching NaNs and matching infinities count as equal; a shape
    mismatch, or a NaN or infinity on one side only, gives ``inf``.  Tuples are
    compared element by element and the worst error is returned.

    Parameters
    ----------
    actual, expected
        Host arrays (or scalars, or tuples of them) of the same shape.
    """
    if isinstance(expected, tuple):
        if not isinstance(actual, tuple) or len(actual) != len(expected):
            return math.inf
        return max((max_rel_error(a, e) for a, e in zip(actual, expected, strict=True)), default=0.0)
    a = np.asarray(actual)
    e = np.asarray(expected)
    if a.shape != e.shape:
        return math.inf
    if a.size == 0:
        return 0.0
    # Widen first: differences of unsigned or narrow types would wrap or round.
    wide = np.complex128 if np.iscomplexobj(a) or np.iscomplexobj(e) else np.float64
    a = a.astype(wide)
    e = e.astype(wide)
    with np.errstate(invalid="ignore", over="ignore"):
        same = (a == e) | (np.isnan(a) & np.isnan(e))
        diff = np.where(same, 0.0, np.abs(a - e))
    if not np.all(np.isfinite(diff)):
        return math.inf
    finite = np.abs(e[np.isfinite(e)])
    scale = float(finite.max()) if finite.size else 0.0
    worst = float(diff.max())
    if worst == 0.0:
        return 0.0
    return worst / scale if scale > 0 else math.inf


def default_tol(expected: Any) -> float:
    """The tolerance when a problem sets none: 0 for exact types, ``100 * eps`` otherwise.

    Copies and fills must be exact; a case computing anything sets its own tolerance.
    """
    if isinstance(expected, tuple):
        return min((default_tol(e) for e in expected), default=0.0)
    dt = np.asarray(expected).dtype
    if np.issubdtype(dt, np.inexact):
        return 100.0 * float(np.finfo(dt).eps)
    return 0.0


@dataclass
class Problem:
    """One bench problem, built by a case's ``setup`` for one size.

    Attributes
    ----------
    run
        The rocmath call to time: enqueues device work (asynchronously) and may return
        the result, e.g. the output DeviceArray.
    reference
        The NumPy/SciPy call on equivalent host data; returns the expected result.
    result
        Turns ``run``'s return value into a host result (called after a synchronize);
        :func:`to_host` when None.
    flops, bytes
        The work done and the bytes moved per call (reads plus writes), for GFLOP/s
        (when ``flops`` > 0) or GB/s.
    stream
        The stream ``run`` enqueues on: the timer synchronizes it.  None synchronizes the
        whole device (``rocmath.device_synchronize``).
    check
        ``check(actual, expected)`` gives the error reported in the max-rel-err column.
    tol
        The largest passing error; :func:`default_tol` of the expected result when None.
    label
        The size as shown in the report (``str(size)`` when None).
    teardown
        Called once the problem was timed, even after an error (e.g. to free memory).
    memory_bound
        The call streams memory: its rate is shown in GB/s and as a fraction of the
        machine's copy bandwidth, measured just before and after its timed calls
        (:func:`~rocmath.bench.timing.measure_copy_bandwidth`).
    synchronous
        ``run`` returns only once its work is done, as a host pointer mode reduction that returns
        its value: the timer waits for nothing after it (a user calls no synchronize there; on a
        cold cache it costs 15-20 us), and checks after the first and the timed calls that
        ``stream`` (required) has no work left.
    restore
        For a call that overwrites its own inputs (an in-place factorization): puts them back,
        untimed (and waited for), before every call after the first, warm-ups included, so that
        each call does the first call's work on the first call's data, as the reference does,
        and every result can be checked.  (Of matrices it had factored already, a getrf pivots
        no rows: 20,000 32 x 32 entries took 20 ms so, against 29 ms fresh.)
    """

    run: Callable[[], Any]
    reference: Callable[[], Any]
    result: Callable[[Any], Any] | None = None
    flops: float = 0.0
    bytes: float = 0.0
    stream: Any = None
    check: Callable[[Any, Any], float] = max_rel_error
    tol: float | None = None
    label: str | None = None
    teardown: Callable[[], Any] | None = None
    memory_bound: bool = False
    restore: Callable[[], Any] | None = None
    synchronous: bool = False


@dataclass(frozen=True)
class BenchCase:
    """A named benchmark: its sizes per suite and the setup building a problem for a size.

    Attributes
    ----------
    name
        Unique name, prefixed by the library: ``"runtime.memcpy_h2d"``, ``"blas.gemm_d"``.
    setup
        ``setup(size) -> Problem``; ``size`` is one entry of ``sizes[suite]`` (an int, a
        tuple, a dict of parameters...).
    sizes
        Suite name to the sizes run in that suite (``{"quick": [1 << 20], "full": [...]}``).
        A case belongs to exactly the suites named here.
    description
        One line for ``--list`` (the first line of ``setup``'s docstring when empty).
    """

    name: str
    setup: Callable[[Any], Problem]
    sizes: Mapping[str, Sequence[Any]]
    description: str = ""

    def __post_init__(self) -> None:
        if not self.name or any(c.isspace() for c in self.name):
            raise ValueError(f"bench case name must be non-empty without spaces, got {self.name!r}")
        if not callable(self.setup):
            raise TypeError(f"bench case {self.name}: setup must be callable")
        if not self.sizes:
            raise ValueError(f"bench case {self.name}: no suites given")
        frozen = {}
        for suite, sizes in self.sizes.items():
            seq = tuple(sizes)
            if not seq:
                raise ValueError(f"bench case {self.name}: suite {suite!r} has no sizes")
            frozen[str(suite)] = seq
        object.__setattr__(self, "sizes", frozen)
        if not self.description:
            doc = (getattr(self.setup, "__doc__", None) or "").strip()
            object.__setattr__(self, "description", doc.splitlines()[0] if doc else "")

    @property
    def suites(self) -> tuple[str, ...]:
        """The suites this case is in."""
        return tuple(self.sizes)

    @property
    def library(self) -> str:
        """The library prefix of the name (``"runtime"`` for ``"runtime.memcpy_h2d"``)."""
        return self.name.split(".", 1)[0]
